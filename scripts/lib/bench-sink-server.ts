/**
 * A server that only reads upload bodies, for bench:storage to measure what the SDKs can send
 * at most: `POST …/files` is read to its end and answered with a minimal Appwrite File model
 * (its chunks counted per upload, so the SDKs' chunk loop runs as against a real backend);
 * `GET …/health/version` answers for start-up checks; `GET …/_sink/stats` answers how many
 * uploads it took and how many were in flight at most since the last such call (how many chunks an
 * SDK really sends at once); CORS is open for the bench page. Run as its own process
 * (`node bench-sink-server.ts <port>`) so it does not share the client's event loop.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

const CHUNK_SIZE = 5 * 1024 * 1024;

/** What the sink answers for one upload request, given its headers and body size. */
export function sinkAnswer(
  counts: Map<string, number>,
  headers: IncomingMessage['headers'],
  bodyBytes: number,
): Record<string, unknown> {
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(headers['content-range'] ?? ''));
  const size = range ? Number(range[3]) : bodyBytes;
  const given = headers['x-appwrite-id'];
  const id = typeof given === 'string' && given !== '' ? given : randomBytes(10).toString('hex');
  const uploaded = (counts.get(id) ?? 0) + 1;
  const total = range ? Math.ceil(size / CHUNK_SIZE) : 1;
  if (uploaded >= total) counts.delete(id);
  else counts.set(id, uploaded);
  return { $id: id, sizeOriginal: size, chunksTotal: total, chunksUploaded: uploaded };
}

function cors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', String(req.headers.origin ?? '*'));
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    String(req.headers['access-control-request-headers'] ?? '*'),
  );
}

/** Uploads taken since the last `GET …/_sink/stats`, and how many were in flight at most. */
export interface SinkStats {
  uploads: number;
  maxInFlight: number;
}

/** The sink server (not listening yet). */
export function createSinkServer(): Server {
  const counts = new Map<string, number>();
  let stats: SinkStats = { uploads: 0, maxInFlight: 0 };
  let inFlight = 0;
  return createServer((req, res) => {
    cors(req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const upload = req.method === 'POST';
    if (upload) {
      inFlight++;
      stats.uploads++;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    }
    let bytes = 0;
    req.on('data', (piece: Buffer) => (bytes += piece.length));
    req.on('end', () => {
      let answer: unknown;
      if (upload) {
        inFlight--;
        answer = sinkAnswer(counts, req.headers, bytes);
      } else if (req.url?.endsWith('/_sink/stats')) {
        answer = stats;
        stats = { uploads: 0, maxInFlight: 0 };
      } else {
        answer = { version: 'sink' };
      }
      res.writeHead(upload ? 201 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
}

if (process.argv[1] === import.meta.filename) {
  const port = Number(process.argv[2]);
  createSinkServer().listen(port, '127.0.0.1', () => console.log(`sink listening on ${port}`));
}
