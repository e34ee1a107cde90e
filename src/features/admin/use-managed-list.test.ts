// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { useManagedList, type ManagedList } from './use-managed-list.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Lets timers and promises run until `done` holds (at most a second). */
async function settle(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 1000; waited += 5)
    await act(() => new Promise((resolve) => setTimeout(resolve, 5)));
}

/** Mounts the hook over `fetchItems`, waits for its first load, and hands back its latest value. */
async function mount(fetchItems: () => Promise<string[]>) {
  const seen: { current: ManagedList<string> | null } = { current: null };
  function Probe() {
    seen.current = useManagedList(fetchItems, 'view the list');
    return null;
  }
  const root = createRoot(document.createElement('div'));
  act(() => root.render(createElement(Probe)));
  await settle(() => seen.current?.items !== null || seen.current.loadError !== null);
  return { seen, unmount: () => act(() => root.unmount()) };
}

const forbidden = Object.assign(new Error('no'), { code: 403, type: 'user_unauthorized' });

describe('useManagedList', () => {
  it('loads the items once mounted', async () => {
    const { seen, unmount } = await mount(() => Promise.resolve(['a', 'b']));
    expect(seen.current?.items).toEqual(['a', 'b']);
    expect(seen.current?.loadError).toBeNull();
    await unmount();
  });

  it('keeps a failed load as a readable error, and a retry loads again', async () => {
    let fail = true;
    const { seen, unmount } = await mount(() =>
      fail ? Promise.reject(forbidden) : Promise.resolve(['a']),
    );
    expect(seen.current?.items).toBeNull();
    expect(seen.current?.loadError?.message).toBe('You don’t have permission to view the list.');
    fail = false;
    await act(() => seen.current!.reload());
    expect(seen.current?.items).toEqual(['a']);
    expect(seen.current?.loadError).toBeNull();
    await unmount();
  });

  it('runs an action, marks its item busy meanwhile, then reloads', async () => {
    const items = ['a'];
    const { seen, unmount } = await mount(() => Promise.resolve([...items]));
    let release!: () => void;
    let result: Promise<boolean> | undefined;
    act(() => {
      result = seen.current!.act(
        'b',
        () => new Promise<void>((resolve) => (release = resolve)),
        'add items',
      );
    });
    expect(seen.current?.busy).toBe('b');
    items.push('b');
    await act(async () => {
      release();
      expect(await result).toBe(true);
    });
    expect(seen.current?.busy).toBeNull();
    expect(seen.current?.items).toEqual(['a', 'b']);
    await unmount();
  });

  it('answers false for a refused action and keeps the list with the message', async () => {
    const { seen, unmount } = await mount(() => Promise.resolve(['a']));
    let answer: boolean | undefined;
    await act(async () => {
      answer = await seen.current!.act('a', () => Promise.reject(forbidden), 'remove items');
    });
    expect(answer).toBe(false);
    expect(seen.current?.actionError).toBe('You don’t have permission to remove items.');
    expect(seen.current?.items).toEqual(['a']);
    expect(seen.current?.busy).toBeNull();
    await unmount();
  });
});
