import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../core/db.ts';
import { formatDate } from '../../core/time.ts';
import { emptyChunkSet, withChunk } from './chunks.ts';
import type { BucketRecord, FileRecord } from './models.ts';
import { StorageRecords } from './records.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-23T10:00:00.000Z');

function open(): { store: Store; storage: StorageRecords; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'livedesk-storage-test-'));
  dirs.push(dir);
  const store = new Store(dir);
  return { store, storage: new StorageRecords(store, dir), dir };
}

function bucket(id: string): BucketRecord {
  return {
    id,
    createdAt: formatDate(T0),
    updatedAt: formatDate(T0),
    permissions: [],
    fileSecurity: false,
    name: id,
    enabled: true,
    maximumFileSize: 1000,
    allowedFileExtensions: [],
    compression: 'none',
    encryption: false,
    antivirus: false,
    transformations: true,
  };
}

function file(bucketId: string, id: string, updatedAt: number, complete: boolean): FileRecord {
  return {
    bucketId,
    id,
    createdAt: formatDate(updatedAt),
    updatedAt: formatDate(updatedAt),
    permissions: [],
    name: `${id}.bin`,
    signature: '',
    mimeType: '',
    sizeOriginal: 10,
    sizeActual: complete ? 10 : 0,
    chunksTotal: 2,
    chunks: complete ? '11' : withChunk(emptyChunkSet(2), 1),
    complete,
  };
}

describe('StorageRecords.sweep', () => {
  it('removes uploads unfinished for longer than allowed, with their bytes, and keeps the rest', async () => {
    const { storage } = open();
    storage.insertBucket(bucket('b'));
    await storage.prepareBucketDir('b');
    const records = [
      file('b', 'abandoned', T0 - 2 * HOUR, false),
      file('b', 'recent', T0 - HOUR / 2, false),
      file('b', 'finished', T0 - 5 * HOUR, true),
    ];
    for (const record of records) {
      storage.insertFile(record);
      writeFileSync(storage.pathOf('b', record.id), '0123456789');
    }
    const result = await storage.sweep(T0, HOUR, false);
    expect(result.uploads).toBe(1);
    expect(storage.getFile('b', 'abandoned')).toBeNull();
    expect(existsSync(storage.pathOf('b', 'abandoned'))).toBe(false);
    for (const id of ['recent', 'finished']) {
      expect(storage.getFile('b', id)).not.toBeNull();
      expect(existsSync(storage.pathOf('b', id))).toBe(true);
    }
  });

  it('at start also removes bytes without a record, temporary bodies and folders of deleted buckets', async () => {
    const { storage, dir } = open();
    storage.insertBucket(bucket('b'));
    await storage.prepareBucketDir('b');
    await storage.prepareBucketDir('gone');
    storage.insertFile(file('b', 'kept', T0, true));
    writeFileSync(storage.pathOf('b', 'kept'), '0123456789');
    writeFileSync(storage.pathOf('b', 'orphan'), 'x');
    writeFileSync(storage.pathOf('gone', 'f'), 'x');
    const temporary = storage.temporaryPath();
    writeFileSync(temporary, 'partial body');

    const periodic = await storage.sweep(T0, HOUR, false);
    expect(periodic).toEqual({ uploads: 0, temporary: 0, orphans: 0 });
    utimesSync(temporary, new Date(T0 - 2 * HOUR), new Date(T0 - 2 * HOUR));
    expect((await storage.sweep(T0, HOUR, false)).temporary).toBe(1);

    const atStart = await storage.sweep(T0, HOUR, true);
    expect(atStart.orphans).toBe(1);
    expect(readdirSync(join(dir, 'storage', 'files'))).toEqual(['b']);
    expect(readdirSync(join(dir, 'storage', 'files', 'b'))).toEqual(['kept']);
  });

  it('deleting a file frees its bytes once the delete is committed', async () => {
    const { store, storage } = open();
    store.groupCommits();
    storage.insertBucket(bucket('b'));
    await storage.prepareBucketDir('b');
    storage.insertFile(file('b', 'f', T0, true));
    writeFileSync(storage.pathOf('b', 'f'), '0123456789');
    const removed = storage.deleteFile('b', 'f');
    expect(existsSync(storage.pathOf('b', 'f'))).toBe(true);
    await removed;
    expect(existsSync(storage.pathOf('b', 'f'))).toBe(false);
    expect(storage.totalSize('b')).toBe(0);
  });

  it('writes chunks at their offsets in any order, and flushes a file only when it exists', async () => {
    const { storage, dir } = open();
    const path = join(dir, 'upload.bin');
    await storage.writeChunk(path, 4, Buffer.from('efgh'));
    await storage.writeChunk(path, 0, Buffer.from('abcd'));
    await storage.writeChunk(path, 8, Buffer.from('ij'));
    // no flush yet: the bytes are visible (page cache) as soon as the write resolved
    expect(readFileSync(path, 'utf8')).toBe('abcdefghij');
    await storage.writeChunk(path, 4, Buffer.from('EFGH'));
    expect(readFileSync(path, 'utf8')).toBe('abcdEFGHij');
    await expect(storage.flushFile(path)).resolves.toBeUndefined();
    await expect(storage.flushFile(join(dir, 'missing.bin'))).rejects.toThrow(/ENOENT/);
  });
});
