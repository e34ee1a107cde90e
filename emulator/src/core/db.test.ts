import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from './db.ts';

const dirs: string[] = [];

function open(grouping: boolean): { store: Store; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'livedesk-db-test-'));
  dirs.push(dir);
  const store = new Store(dir);
  store.sql.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)');
  if (grouping) store.groupCommits();
  return { store, dir };
}

/** What another connection (another process after a crash) sees: committed rows only. */
function committed(dir: string): string[] {
  const other = new DatabaseSync(join(dir, 'backend.sqlite'), { readOnly: true });
  try {
    return (other.prepare('SELECT v FROM t ORDER BY id').all() as { v: string }[]).map(
      (row) => row.v,
    );
  } finally {
    other.close();
  }
}

const insert = (store: Store, v: string) =>
  store.transaction(() => store.prepare('INSERT INTO t (v) VALUES (?)').run(v));
const turn = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Store group commits', () => {
  it('commits the writes of one turn together, and answers only after the commit', async () => {
    const { store, dir } = open(true);
    const answered: string[][] = [];
    insert(store, 'a');
    store.afterCommit(() => answered.push(committed(dir)));
    insert(store, 'b');
    store.afterCommit(() => answered.push(committed(dir)));
    expect(committed(dir)).toEqual([]);
    await turn();
    expect(answered).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    store.close();
  });

  it('undoes a failed transaction alone, keeping the others of its turn', async () => {
    const { store, dir } = open(true);
    insert(store, 'a');
    expect(() =>
      store.transaction(() => {
        store.prepare('INSERT INTO t (v) VALUES (?)').run('half');
        store.prepare('INSERT INTO t (v) VALUES (?)').run('a');
      }),
    ).toThrow(/UNIQUE/);
    insert(store, 'c');
    await turn();
    expect(committed(dir)).toEqual(['a', 'c']);
    store.close();
  });

  it('commits at once when an answer waits on a group open for more than 5 ms', () => {
    const { store, dir } = open(true);
    insert(store, 'a');
    const until = performance.now() + 6;
    while (performance.now() < until) {
      // a long request (a bulk write) keeps the turn busy
    }
    let seen: string[] = [];
    store.afterCommit(() => (seen = committed(dir)));
    expect(seen).toEqual(['a']);
    store.close();
  });

  it('runs afterCommit at once when no write is pending, and commits on close', () => {
    const { store, dir } = open(true);
    let ran = false;
    store.afterCommit((error) => (ran = error === null));
    expect(ran).toBe(true);
    insert(store, 'z');
    store.close();
    expect(committed(dir)).toEqual(['z']);
  });

  it('commits each transaction at once without group commits', () => {
    const { store, dir } = open(false);
    insert(store, 'a');
    expect(committed(dir)).toEqual(['a']);
    store.close();
  });
});
