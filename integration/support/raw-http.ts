import { connect } from 'node:net';
import type { BackendConnection } from '../targets/types.ts';

/** What a raw HTTP exchange gave back: the status (0 when the connection ended without one) and the text. */
export interface RawAnswer {
  status: number;
  text: string;
}

/**
 * Sends `request` as bytes on a fresh TCP connection to the backend of `connection` and reads the
 * answer until the server closes or `timeoutMs` passes. For requests `fetch` refuses to send
 * (malformed request lines, headers and encodings).
 */
export function rawExchange(
  connection: BackendConnection,
  request: string | Buffer,
  timeoutMs = 5_000,
): Promise<RawAnswer> {
  const url = new URL(connection.endpoint);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 0, text });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One answer is enough: stop once its body is complete.
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
      if (length && text.length >= end + 4 + Number(length[1])) finish();
      else if (!length && /^HTTP\/1\.[01] (1\d\d|204|304)/.test(text)) finish();
    });
    socket.on('end', finish);
    socket.on('error', finish);
    socket.write(request);
  });
}

/** The `type` of an Appwrite error body in a raw answer, or null. */
export function errorType(answer: RawAnswer): string | null {
  const body = answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4);
  try {
    return (JSON.parse(body) as { type?: string }).type ?? null;
  } catch {
    return null;
  }
}
