import { Query } from 'appwrite';
import { describe, expect, it } from 'vitest';
import { ManualClock, ModelServer } from './testing/model-server.ts';
import { Prng } from './testing/prng.ts';
import { cursorPages, deltaPages, deltaQueries, isoTime } from './pager.ts';

const T0 = Date.UTC(2026, 0, 1);

function server(count: number, sameTime = false) {
  const clock = new ManualClock(T0);
  const model = new ModelServer({ clock, rng: new Prng(1), autoAnswer: true });
  for (let i = 0; i < count; i++) {
    if (!sameTime) clock.now = T0 + i * 10;
    model.write('orders', 'create', `d${String(i).padStart(4, '0')}`, { n: i });
  }
  model.commitDue(true);
  return { clock, model };
}

async function collect(pages: AsyncGenerator<readonly { $id: string }[]>): Promise<string[][]> {
  const out: string[][] = [];
  for await (const page of pages) out.push(page.map((d) => d.$id));
  return out;
}

describe('cursorPages', () => {
  it('pages until a short page, and stops at max', async () => {
    const { model } = server(23);
    const pages = await collect(
      cursorPages(model, 'orders', [Query.orderAsc('$createdAt')], { pageSize: 10 }),
    );
    expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(pages.flat()).toHaveLength(23);
    const capped = await collect(cursorPages(model, 'orders', [], { pageSize: 10, max: 15 }));
    expect(capped.map((p) => p.length)).toEqual([10, 5]);
  });

  it('reads a smaller first page when asked', async () => {
    const { model } = server(23);
    const pages = await collect(
      cursorPages(model, 'orders', [Query.orderAsc('$createdAt')], {
        pageSize: 10,
        firstPageSize: 2,
      }),
    );
    expect(pages.map((p) => p.length)).toEqual([2, 10, 10, 1]);
    expect(new Set(pages.flat()).size).toBe(23);
  });

  it('resumes after the last document of a page still there when the cursor was deleted', async () => {
    for (const gone of [1, 3]) {
      const { model } = server(23);
      let reads = 0;
      const deleting = {
        list: (collection: 'orders', queries: readonly string[]) => {
          // Before the second page: the last `gone` documents of the first are deleted.
          if (++reads === 2) {
            for (let i = 10 - gone; i < 10; i++)
              model.write('orders', 'delete', `d${String(i).padStart(4, '0')}`, {});
            model.commitDue(true);
          }
          return model.list(collection, queries);
        },
      };
      const pages = await collect(
        cursorPages(deleting, 'orders', [Query.orderAsc('$createdAt')], { pageSize: 10 }),
      );
      const expected = Array.from({ length: 23 }, (_, i) => `d${String(i).padStart(4, '0')}`);
      expect(pages.flat()).toEqual(expected);
      expect(pages[1]![0]).toBe('d0010');
      expect(reads).toBe(3 + gone);
    }
  });

  it('fails when every document of the page is gone, or on another error', async () => {
    const { model } = server(23);
    let reads = 0;
    const emptied = {
      list: (collection: 'orders', queries: readonly string[]) => {
        if (++reads === 2) {
          for (let i = 0; i < 10; i++)
            model.write('orders', 'delete', `d${String(i).padStart(4, '0')}`, {});
          model.commitDue(true);
        }
        return model.list(collection, queries);
      },
    };
    await expect(
      collect(cursorPages(emptied, 'orders', [], { pageSize: 10 })),
    ).rejects.toMatchObject({ code: 400, type: 'general_cursor_not_found' });
    expect(reads).toBe(11);
  });

  it('makes no extra read after a short page', async () => {
    const { model } = server(20);
    await collect(cursorPages(model, 'orders', [], { pageSize: 10 }));
    expect(model.readCount).toBe(3);
  });
});

describe('deltaPages', () => {
  it('reads everything updated since a time, in $updatedAt then $id order', async () => {
    const { model } = server(30);
    const pages = await collect(deltaPages(model, 'orders', T0 + 95, [], 7));
    expect(pages.flat()).toEqual(
      Array.from({ length: 20 }, (_, i) => `d${String(i + 10).padStart(4, '0')}`),
    );
  });

  it('pages through ties on $updatedAt without skipping or repeating', async () => {
    const { model } = server(25, true);
    const pages = await collect(deltaPages(model, 'orders', T0, [], 10));
    expect(pages.flat()).toEqual([...pages.flat()].sort());
    expect(new Set(pages.flat()).size).toBe(25);
  });

  it('does not skip documents when the last one read is updated between pages', async () => {
    const { clock, model } = server(30);
    const pages = deltaPages(model, 'orders', T0, [], 10);
    const seen: string[] = [];
    const first = await pages.next();
    seen.push(...(first.value as readonly { $id: string }[]).map((d) => d.$id));
    // The cursor document moves to the end of the $updatedAt order; a cursorAfter on it would
    // now skip d0010…d0029.
    clock.now = T0 + 10_000;
    model.write('orders', 'update', 'd0009', { n: -1 });
    model.commitDue(true);
    for await (const page of pages) seen.push(...page.map((d) => d.$id));
    for (let i = 0; i < 30; i++) expect(seen).toContain(`d${String(i).padStart(4, '0')}`);
  });

  it("(why: cursorAfter resumes from the cursor document's current values)", () => {
    const { clock, model } = server(30);
    const order = [Query.greaterThanEqual('$updatedAt', isoTime(T0)), Query.orderAsc('$updatedAt')];
    const first = model.query('orders', [...order, Query.limit(10)]);
    clock.now = T0 + 10_000;
    model.write('orders', 'update', 'd0009', { n: -1 });
    model.commitDue(true);
    const next = model.query('orders', [...order, Query.limit(10), Query.cursorAfter('d0009')]);
    expect(first.documents).toHaveLength(10);
    expect(next.documents).toHaveLength(0);
  });

  it('builds keyset queries by value', () => {
    expect(deltaQueries(T0, null, 5).map((q) => JSON.parse(q).method)).toEqual([
      'greaterThanEqual',
      'orderAsc',
      'orderAsc',
      'limit',
    ]);
    const next = JSON.parse(deltaQueries(T0, { updatedAt: T0 + 1, id: 'x' }, 5)[0]!);
    expect(next.method).toBe('or');
    expect(JSON.stringify(next)).toContain(isoTime(T0 + 1));
  });
});
