import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { assembleSnapshot, planInitialLoad, recentFull, type PlannedRead } from './load-plan.ts';
import { readSnapshot } from './load-reader.ts';

const NOW = Date.UTC(2026, 2, 10, 12);
const settings = {
  historyDays: 30,
  maxOrders: 5,
  slices: 2,
  firstPageSize: 2,
  fullSync: ['products', 'members'] as const,
};

const describeRead = (read: PlannedRead) =>
  `${read.part}${read.part === 'recent' ? read.slice : ''}:${read.collection}/${read.paging}/${read.copy}${read.first ? '/first' : ''}`;

describe('planInitialLoad', () => {
  it('reads recent orders in slices (list copies), older open ones, and the whole sets asked for', () => {
    const plan = planInitialLoad(settings, NOW);
    expect(plan.reads.map(describeRead)).toEqual([
      'recent0:orders/cursor/list/first',
      'recent1:orders/cursor/list',
      'older-open:orders/cursor/list',
      'products:products/cursor/whole',
      'members:members/offset/whole',
    ]);
    expect(plan.reads[0]!.firstPageSize).toBe(2);
    expect(plan.reads[0]!.queries.some((q) => q.includes('lessThan'))).toBe(false);
    expect(plan.reads[1]!.queries.some((q) => q.includes('lessThan'))).toBe(true);
    expect(plan.watermark.queries[0]).toContain('"orderDesc","attribute":"$updatedAt"');
  });

  it('stops a slice once it and the newer ones hold the newest orders asked for', () => {
    expect(recentFull([3, 1], 1, 5)).toBe(false);
    expect(recentFull([3, 2], 1, 5)).toBe(true);
    expect(recentFull([6, 0], 0, 5)).toBe(true);
  });

  it('assembles the snapshot: recent newest first, cut at the maximum, then older open ones', () => {
    const plan = planInitialLoad(settings, NOW);
    const o = (id: string) => ({ id }) as Order;
    const snapshot = assembleSnapshot(plan, {
      recent: [
        [o('a'), o('b'), o('c')],
        [o('d'), o('e'), o('f')],
      ],
      olderOpen: [o('x')],
      whole: { products: [] },
    });
    expect((snapshot.orders as readonly { id: string }[]).map((order) => order.id)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'x',
    ]);
    expect(snapshot.products).toEqual([]);
  });
});

describe('readSnapshot', () => {
  /** A reader over canned pages per read; records the order reads started in. */
  function io(pages: Record<string, unknown[][]>) {
    const started: string[] = [];
    const newest: unknown[][] = [];
    return {
      started,
      newest,
      io: {
        async read(read: PlannedRead, onPage: (records: readonly unknown[]) => boolean) {
          const name = describeRead(read).split(':')[0]!;
          started.push(name);
          for (const page of pages[name] ?? []) {
            await Promise.resolve();
            if (!onPage(page)) return;
          }
        },
        newest: (orders: readonly Order[]) => newest.push([...orders]),
        progress: () => {},
      },
    };
  }

  it('reads the newest slice first and the rest once its first page is in', async () => {
    const plan = planInitialLoad(settings, NOW);
    const {
      io: reader,
      started,
      newest,
    } = io({
      recent0: [[{ id: 'a' }, { id: 'b' }], [{ id: 'c' }]],
      recent1: [[{ id: 'd' }]],
      members: [[{ id: 'm1' }]],
    });
    const snapshot = await readSnapshot(plan, reader);
    expect(started[0]).toBe('recent0');
    expect(started).not.toContain('watermark');
    expect(newest).toEqual([[{ id: 'a' }, { id: 'b' }]]);
    expect((snapshot.orders as readonly { id: string }[]).map((order) => order.id)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(snapshot.members).toEqual([{ id: 'm1' }]);
  });

  it('reads the latest change first when the newest slice is empty', async () => {
    const plan = planInitialLoad(settings, NOW);
    // An empty read may still report its (empty) page: it is no newest page.
    for (const pages of [{}, { recent0: [[]] }] as Record<string, unknown[][]>[]) {
      const { io: reader, started, newest } = io(pages);
      await readSnapshot(plan, reader);
      expect(started.slice(0, 2)).toEqual(['recent0', 'watermark']);
      expect(newest).toEqual([]);
    }
  });

  it('fails with the first failure and starts nothing after a newest slice that failed', async () => {
    const plan = planInitialLoad(settings, NOW);
    const started: string[] = [];
    await expect(
      readSnapshot(plan, {
        read: async (read) => {
          started.push(describeRead(read));
          throw new Error('down');
        },
        newest: () => {},
        progress: () => {},
      }),
    ).rejects.toThrow('down');
    expect(started).toEqual(['recent0:orders/cursor/list/first']);
  });
});
