import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** HS256 tokens signed with the backend's own secret: session JWTs and dynamic API keys. */
export class TokenSigner {
  private readonly secret: string;

  constructor(secret: string) {
    this.secret = secret;
  }

  /** A signed token holding `payload` (`exp`, in seconds, makes it expire). */
  sign(payload: Record<string, unknown>): string {
    const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const body = base64url(JSON.stringify(payload));
    return `${head}.${body}.${this.signature(`${head}.${body}`)}`;
  }

  /** The payload of a token signed here and not expired, or null. */
  verify(token: string): Record<string, unknown> | null {
    const [head, body, signature] = token.split('.');
    if (!head || !body || !signature) return null;
    const expected = this.signature(`${head}.${body}`);
    if (
      expected.length !== signature.length ||
      !timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
    ) {
      return null;
    }
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) return null;
      return payload;
    } catch {
      return null;
    }
  }

  private signature(content: string): string {
    return createHmac('sha256', this.secret).update(content).digest('base64url');
  }
}

/** `exp` of a token valid for `durationMs` from now (seconds). */
export function expiresIn(durationMs: number): number {
  return Math.floor((Date.now() + durationMs) / 1000);
}

/** The SHA-256 of a secret, hex: sessions and invitations keep only this. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
