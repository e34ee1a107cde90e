import { AppError, appErrorFromBody } from '../../domain/errors.ts';

/** What a call that could not reach the backend says: nothing was sent, nothing is retried. */
const OFFLINE_MESSAGE = 'You’re offline: nothing was sent. Try again when the connection is back.';

/** The parts of an `AppwriteException` (or its JSON) this module reads. */
interface AppwriteLike {
  code?: unknown;
  type?: unknown;
  message?: unknown;
  response?: unknown;
}

const AUTH_REQUIRED_TYPES = new Set([
  'user_session_not_found',
  'user_jwt_invalid',
  'user_invalid_token',
  'general_unauthorized_scope',
]);

/** Refusals that mean a function cannot run at all (no built deployment), not a bad request. */
const FUNCTION_NOT_RUNNABLE_TYPES = new Set([
  'deployment_not_found',
  'build_not_ready',
  'function_not_found',
  'function_runtime_unsupported',
]);

/** A short reference id for "Something went wrong (ref …)", also printed to the console. */
export function newReference(): string {
  return Math.random().toString(36).slice(2, 8).toUpperCase();
}

function isAppwriteLike(error: unknown): error is AppwriteLike {
  return typeof error === 'object' && error !== null && 'code' in error && 'type' in error;
}

function fromFunctionResponse(response: unknown): AppError | null {
  if (typeof response !== 'string' || !response) return null;
  try {
    return appErrorFromBody(JSON.parse(response));
  } catch {
    return null;
  }
}

/**
 * The one conversion at the SDK boundary: anything the SDK (or a function's answer) throws
 * becomes an {@link AppError} with the message of docs/product.md §8. `doing` completes "You don't
 * have permission to …" (e.g. "cancel orders"). A 401 that may mean "not allowed" or "signed
 * out" is `FORBIDDEN` with `details.status` 401: the app asks the backend which (see the auth
 * feature's `handleAuthError`). A function that cannot run (its build failed, it has no
 * deployment) is a `SERVER_ERROR`, not "we couldn't find that".
 */
export function toAppError(error: unknown, doing = 'do that'): AppError {
  if (error instanceof AppError) return error;
  if (isAppwriteLike(error)) {
    const fromBody = fromFunctionResponse(error.response);
    if (fromBody) return fromBody;
    const type = String(error.type ?? '');
    const code = Number(error.code);
    if (FUNCTION_NOT_RUNNABLE_TYPES.has(type)) return serverError(error);
    if (type === 'user_invalid_credentials')
      return new AppError('AUTH_INVALID', 'Email or password is incorrect.');
    if (type === 'user_already_exists')
      return new AppError(
        'VALIDATION',
        'An account with this email already exists. Sign in instead.',
        {
          field: 'email',
        },
      );
    if (type === 'user_blocked')
      return new AppError('FORBIDDEN', 'This account is blocked. Ask an owner for help.');
    if (type === 'general_rate_limit_exceeded' || code === 429)
      return new AppError('RATE_LIMITED', 'Too many requests — retrying in a few seconds.');
    if (type === 'user_password_mismatch' || type === 'password_personal_data')
      return new AppError('VALIDATION', String(error.message ?? 'Choose another password.'), {
        field: 'password',
      });
    if (code === 401 && AUTH_REQUIRED_TYPES.has(type))
      return new AppError('AUTH_REQUIRED', 'Your session has ended. Sign in again.');
    if (code === 401 || code === 403)
      return new AppError('FORBIDDEN', `You don’t have permission to ${doing}.`, { status: code });
    if (code === 404)
      return new AppError('NOT_FOUND', 'We couldn’t find that. It may have been removed.');
    if (code === 400 && typeof error.message === 'string')
      return new AppError('VALIDATION', error.message);
    if (code === 0 || type === '') return new AppError('OFFLINE', OFFLINE_MESSAGE);
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message))
    return new AppError('OFFLINE', OFFLINE_MESSAGE);
  return serverError(error);
}

function serverError(error: unknown): AppError {
  const reference = newReference();
  console.error(`[livedesk] error ref ${reference}:`, error);
  return new AppError('SERVER_ERROR', `Something went wrong (ref ${reference}).`, { reference });
}
