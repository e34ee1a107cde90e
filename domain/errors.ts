/** What went wrong, as a person should hear it (docs/product.md §8). */
export type AppErrorCode =
  | 'AUTH_INVALID'
  | 'AUTH_REQUIRED'
  | 'FORBIDDEN'
  | 'ORDER_CONFLICT'
  | 'INVALID_TRANSITION'
  | 'NOT_FOUND'
  | 'VALIDATION'
  | 'CART_INVALID'
  | 'PAYMENT_DECLINED'
  | 'PAYMENT_AUTH_FAILED'
  | 'UPLOAD_TOO_LARGE'
  | 'UPLOAD_TYPE'
  | 'RATE_LIMITED'
  | 'OFFLINE'
  | 'RECONNECTING'
  | 'SERVER_ERROR';

/** The wire form of an error returned by Livedesk's functions: `{error: {code, message}}`. */
export interface AppErrorBody {
  error: { code: AppErrorCode; message: string; details?: Record<string, unknown> };
}

/** An error the UI can show as it is: a code to branch on and a human message. */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: AppErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  toBody(): AppErrorBody {
    const body: AppErrorBody = { error: { code: this.code, message: this.message } };
    if (this.details) body.error.details = this.details;
    return body;
  }
}

/** Reads `{error: {code, message}}` from a parsed function response, if it is one. */
export function appErrorFromBody(body: unknown): AppError | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, details } = error as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return new AppError(
    code as AppErrorCode,
    message,
    typeof details === 'object' && details !== null
      ? (details as Record<string, unknown>)
      : undefined,
  );
}

/** Invariant check: throws when `condition` is false. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Assertion failed: ${message}`);
}
