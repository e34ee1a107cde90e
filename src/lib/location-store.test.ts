import { describe, expect, it } from 'vitest';
import { LocationStore, type HistoryWrite } from './location-store.ts';

/** A history kept in arrays, painted frames and the browser's `popstate` run by hand. */
function fixture(start = '/') {
  const history: { to: string; from: string | null }[] = [{ to: start, from: null }];
  let at = 0;
  const written: HistoryWrite[] = [];
  const frames: (() => void)[] = [];
  const waits: ('idle' | 'still')[] = [];
  let popstate: (() => void) | null = null;
  const store = new LocationStore({
    read: () => history[at]!.to,
    write(entry) {
      written.push(entry);
      if (entry.replace) history[at] = { to: entry.to, from: history[at]!.from };
      else {
        history.splice(at + 1, Infinity, { to: entry.to, from: entry.from ?? null });
        at += 1;
      }
    },
    later: (run, wait) => {
      frames.push(run);
      waits.push(wait);
    },
    pushedFrom: () => history[at]!.from,
    back: () => {
      popstate = () => {
        at -= 1;
        store.moved();
      };
    },
  });
  const paint = () => {
    for (const run of frames.splice(0)) run();
  };
  /** The browser's Back button. */
  const back = () => {
    at -= 1;
    store.moved();
  };
  /** The browser reporting the move `history.back()` asked for. */
  const pop = () => {
    popstate?.();
    popstate = null;
  };
  const entries = () => history.map((entry) => entry.to);
  return { store, entries, written, frames, waits, paint, back, pop, at: () => at };
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
    expect(entries()).toEqual(['/orders?sort=number']);
    expect(store.current()).toBe('/orders?sort=number');
  });

  it('writes several navigations of one frame in order, entries added and replaced', () => {
    const { store, paint, entries, at } = fixture('/orders');
    store.navigate('/orders/o1', false);
    store.navigate('/orders/o1?tab=notes', true);
    store.navigate('/orders/o2', false);
    expect(store.current()).toBe('/orders/o2');
    paint();
    expect(entries()).toEqual(['/orders', '/orders/o1?tab=notes', '/orders/o2']);
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
    expect(written.slice(1)).toEqual([
      { to: '/orders/o1?q=exam&tab=notes', replace: false, from: '/orders?q=exam' },
    ]);
    expect(entries()).toEqual(['/orders?q=exam', '/orders/o1?q=exam&tab=notes']);
  });

  it('writes only once the address is still: a word typed letter by letter is one write', () => {
    const { store, written, frames, paint } = fixture('/orders');
    store.navigate('/orders?q=e', true);
    const firstWait = frames.shift()!;
    store.navigate('/orders?q=ex', true);
    firstWait();
    expect(written).toEqual([]);
    expect(store.current()).toBe('/orders?q=ex');
    paint();
    expect(written).toEqual([{ to: '/orders?q=ex', replace: true }]);
  });

  it('waits for a still address for replaces only: an added entry is written when idle', () => {
    const { store, waits, paint } = fixture('/orders');
    store.navigate('/orders?sort=total', true);
    paint();
    store.navigate('/orders/o1?sort=total', false);
    store.navigate('/orders/o1?sort=total&tab=notes', true);
    expect(waits).toEqual(['still', 'idle', 'idle']);
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
    expect(written).toEqual([{ to: '/board', replace: false, from: '/orders' }]);
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
    expect(written).toEqual([{ to: '/orders/o1', replace: false, from: '/orders' }]);
    expect(store.current()).toBe('/orders');
  });

  it('closes what a click opened by going back to where it was opened from', () => {
    const { store, written, paint, pop, entries, at } = fixture('/orders?sort=total');
    store.navigate('/orders/o1?sort=total', false);
    paint();
    store.navigate('/orders/o1?sort=total&tab=notes', true);
    paint();
    let changes = 0;
    store.subscribe(() => (changes += 1));
    store.back('/orders');
    // At once, before the browser reports the move.
    expect(store.current()).toBe('/orders?sort=total');
    expect(changes).toBe(1);
    pop();
    paint();
    expect(store.current()).toBe('/orders?sort=total');
    expect(at()).toBe(0);
    expect(entries()).toEqual(['/orders?sort=total', '/orders/o1?sort=total&tab=notes']);
    expect(written).toHaveLength(2);
  });

  it('drops an entry added but not written yet, with the replaces after it', () => {
    const { store, written, paint, entries } = fixture('/orders');
    store.navigate('/orders?status=paid', true);
    store.navigate('/orders/o1?status=paid', false);
    store.navigate('/orders/o1?status=paid&tab=notes', true);
    store.back('/orders');
    expect(store.current()).toBe('/orders?status=paid');
    paint();
    expect(written).toEqual([{ to: '/orders?status=paid', replace: true }]);
    expect(entries()).toEqual(['/orders?status=paid']);
    // Nothing pending at all: the browser's address.
    store.navigate('/orders/o2?status=paid', false);
    store.back('/orders');
    expect(store.current()).toBe('/orders?status=paid');
    paint();
    expect(written).toHaveLength(1);
  });

  it('replaces an address not opened by a click (a link, a reload) by the fallback', () => {
    const { store, written, paint, entries } = fixture('/orders/o1?view=board');
    store.back('/');
    expect(store.current()).toBe('/');
    paint();
    expect(written).toEqual([{ to: '/', replace: true }]);
    expect(entries()).toEqual(['/']);
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
