import { describe, expect, it } from 'vitest';
import { LocationStore, type HistoryWrite } from './location-store.ts';

/** A history kept in arrays, painted frames run by hand. */
function fixture(start = '/') {
  const entries = [start];
  let at = 0;
  const written: HistoryWrite[] = [];
  const frames: (() => void)[] = [];
  const store = new LocationStore({
    read: () => entries[at]!,
    write(entry) {
      written.push(entry);
      if (entry.replace) entries[at] = entry.to;
      else {
        entries.splice(at + 1, Infinity, entry.to);
        at += 1;
      }
    },
    later: (run) => frames.push(run),
  });
  const paint = () => {
    for (const run of frames.splice(0)) run();
  };
  const back = () => {
    at -= 1;
    store.moved();
  };
  return { store, entries, written, paint, back, at: () => at };
}

describe('LocationStore', () => {
  it('moves at once and writes the history after the next paint', () => {
    const { store, written, paint, entries } = fixture('/orders');
    let changes = 0;
    store.subscribe(() => (changes += 1));
    store.navigate('/orders?sort=number', true);
    expect(store.current()).toBe('/orders?sort=number');
    expect(changes).toBe(1);
    expect(written).toEqual([]);
    paint();
    expect(written).toEqual([{ to: '/orders?sort=number', replace: true }]);
    expect(entries).toEqual(['/orders?sort=number']);
    expect(store.current()).toBe('/orders?sort=number');
  });

  it('writes several navigations of one frame in order, entries added and replaced', () => {
    const { store, paint, entries, at } = fixture('/orders');
    store.navigate('/orders/o1', false);
    store.navigate('/orders/o1?tab=notes', true);
    store.navigate('/orders/o2', false);
    expect(store.current()).toBe('/orders/o2');
    paint();
    expect(entries).toEqual(['/orders', '/orders/o1?tab=notes', '/orders/o2']);
    expect(at()).toBe(2);
  });

  it('folds a burst of replaces into one write, after the entry added before them', () => {
    const { store, written, paint, entries } = fixture('/orders');
    for (const q of ['e', 'ex', 'exa', 'exam']) store.navigate(`/orders?q=${q}`, true);
    paint();
    expect(written).toEqual([{ to: '/orders?q=exam', replace: true }]);
    store.navigate('/orders/o1?q=exam', false);
    store.navigate('/orders/o1?q=exam&tab=notes', true);
    paint();
    expect(written.slice(1)).toEqual([{ to: '/orders/o1?q=exam&tab=notes', replace: false }]);
    expect(entries).toEqual(['/orders?q=exam', '/orders/o1?q=exam&tab=notes']);
  });

  it('does nothing when already at the address, written or not', () => {
    const { store, written, paint } = fixture('/orders');
    let changes = 0;
    store.subscribe(() => (changes += 1));
    store.navigate('/orders', true);
    store.navigate('/board', false);
    store.navigate('/board', false);
    paint();
    expect(changes).toBe(1);
    expect(written).toEqual([{ to: '/board', replace: false }]);
  });

  it('writes what is pending when flushed before the paint (the page being left)', () => {
    const { store, written, paint } = fixture('/');
    store.navigate('/orders?status=paid', true);
    store.flush();
    expect(written).toEqual([{ to: '/orders?status=paid', replace: true }]);
    paint();
    expect(written).toHaveLength(1);
  });

  it('follows the browser back, dropping what was not written yet', () => {
    const { store, paint, back, written } = fixture('/orders');
    store.navigate('/orders/o1', false);
    paint();
    store.navigate('/orders/o1?tab=notes', true);
    back();
    expect(store.current()).toBe('/orders');
    paint();
    expect(written).toEqual([{ to: '/orders/o1', replace: false }]);
    expect(store.current()).toBe('/orders');
  });

  it('stops calling a listener once unsubscribed', () => {
    const { store } = fixture('/');
    let changes = 0;
    const stop = store.subscribe(() => (changes += 1));
    store.navigate('/a', true);
    stop();
    store.navigate('/b', true);
    expect(changes).toBe(1);
  });
});
