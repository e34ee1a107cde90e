import { Client, ID, Storage } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { describe, expect, it } from 'vitest';
import { createSinkServer, sinkAnswer } from './bench-sink-server.ts';

describe('bench sink server', () => {
  it('counts the chunks of each upload and names the upload as the SDKs expect', () => {
    const counts = new Map<string, number>();
    const size = 12 * 1024 * 1024;
    const first = sinkAnswer(counts, { 'content-range': `bytes 0-5242879/${size}` }, 5242880);
    expect(first).toMatchObject({ chunksTotal: 3, chunksUploaded: 1, sizeOriginal: size });
    const id = first.$id as string;
    const range = { 'content-range': `bytes 5242880-10485759/${size}`, 'x-appwrite-id': id };
    expect(sinkAnswer(counts, range, 5242880)).toMatchObject({ $id: id, chunksUploaded: 2 });
    expect(sinkAnswer(counts, range, 5242880)).toMatchObject({ $id: id, chunksUploaded: 3 });
    expect(counts.size).toBe(0);
    expect(sinkAnswer(counts, {}, 10)).toMatchObject({ chunksTotal: 1, sizeOriginal: 10 });
  });

  it('takes a chunked upload from node-appwrite to its end', async () => {
    const server = createSinkServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as { port: number };
      const client = new Client().setEndpoint(`http://127.0.0.1:${port}/v1`).setProject('p');
      const bytes = Buffer.alloc(11 * 1024 * 1024, 1);
      const file = await new Storage(client).createFile({
        bucketId: 'b',
        fileId: ID.unique(),
        file: InputFile.fromBuffer(bytes, 'a.bin'),
      });
      expect(file).toMatchObject({ chunksTotal: 3, chunksUploaded: 3, sizeOriginal: bytes.length });
      const stats = await (await fetch(`http://127.0.0.1:${port}/v1/_sink/stats`)).json();
      expect(stats).toMatchObject({ uploads: 3 });
      expect(stats.maxInFlight).toBeGreaterThanOrEqual(1);
      expect(stats.maxInFlight).toBeLessThanOrEqual(2);
      const again = await (await fetch(`http://127.0.0.1:${port}/v1/_sink/stats`)).json();
      expect(again).toEqual({ uploads: 0, maxInFlight: 0 });
    } finally {
      server.close();
    }
  });
});
