import { ExecutionMethod, type Models } from 'appwrite';
import { AppError, appErrorFromBody } from '../../domain/errors.ts';
import { FUNCTIONS } from '../../domain/ids.ts';
import type { OrderActionRequest } from '../../domain/order-machine.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { toAppError } from './errors.ts';
import type { OrderActionGateway } from '../mutations/transport.ts';

/** The part of the SDK's `Functions` service the gateway uses. */
export interface FunctionsClient {
  createExecution(params: {
    functionId: string;
    body?: string;
    async?: boolean;
    method?: ExecutionMethod;
    headers?: object;
  }): Promise<Pick<Models.Execution, '$id' | 'responseStatusCode' | 'responseBody'>>;
}

function serverError(executionId: string): AppError {
  return new AppError('SERVER_ERROR', `Something went wrong (ref ${executionId}).`, {
    reference: executionId,
  });
}

function isOrderDocument(value: unknown): value is OrderDocument {
  if (typeof value !== 'object' || value === null) return false;
  const doc = value as Record<string, unknown>;
  return (
    typeof doc.$id === 'string' && typeof doc.$updatedAt === 'string' && typeof doc.rev === 'number'
  );
}

/**
 * Reads a synchronous execution of `order-action`: status 200 with the order document, or
 * 4xx/5xx with `{error: {code, message}}` (thrown as that `AppError`). Anything else is a
 * `SERVER_ERROR` that names the execution, so the log can find it.
 *
 * @throws AppError
 */
export function parseExecution(
  execution: Pick<Models.Execution, '$id' | 'responseStatusCode' | 'responseBody'>,
): OrderDocument {
  let body: unknown;
  try {
    body = JSON.parse(execution.responseBody);
  } catch {
    throw serverError(execution.$id);
  }
  if (execution.responseStatusCode === 200 && isOrderDocument(body)) return body;
  throw appErrorFromBody(body) ?? serverError(execution.$id);
}

function isAppwriteException(
  error: unknown,
): error is { code: number; type: string; message: string } {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AppwriteException' &&
    typeof (error as { code?: unknown }).code === 'number'
  );
}

/**
 * Converts what the SDK throws into an `AppError` (PRODUCT.md §7): 401 → `AUTH_REQUIRED`,
 * 429 → `RATE_LIMITED`, a request that never got an answer → `OFFLINE`; the rest as the app
 * converts any SDK error.
 */
export function gatewayError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isAppwriteException(error)) {
    if (error.code === 401)
      return new AppError('AUTH_REQUIRED', 'Your session has ended. Sign in again.');
    if (error.code === 429)
      return new AppError('RATE_LIMITED', 'Too many requests — retrying in a few seconds.');
    if (error.code === 0)
      return new AppError('OFFLINE', 'You’re offline. We’ll retry when the connection is back.');
  }
  if (error instanceof TypeError)
    return new AppError('OFFLINE', 'You’re offline. We’ll retry when the connection is back.');
  return toAppError(error, 'do that');
}

/**
 * The production {@link OrderActionGateway}: runs the `order-action` Appwrite function
 * synchronously with the request as its JSON body.
 */
export function createFunctionGateway(functions: FunctionsClient): OrderActionGateway {
  return {
    async perform(request: OrderActionRequest): Promise<OrderDocument> {
      let execution: Awaited<ReturnType<FunctionsClient['createExecution']>>;
      try {
        execution = await functions.createExecution({
          functionId: FUNCTIONS.orderAction,
          body: JSON.stringify(request),
          async: false,
          method: ExecutionMethod.POST,
          headers: { 'content-type': 'application/json' },
        });
      } catch (error) {
        throw gatewayError(error);
      }
      return parseExecution(execution);
    },
  };
}
