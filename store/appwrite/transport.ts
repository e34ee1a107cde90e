import {
  ExecutionMethod,
  ID,
  Permission,
  Role,
  type Models,
  type Realtime,
  type Teams,
} from 'appwrite';
import { AppError, appErrorFromBody } from '../../domain/errors.ts';
import { DESK_TEAM_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderActionRequest, RefundRequest } from '../../domain/order-machine.ts';
import type { OrderDocument } from '../../domain/order.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import type { DeskTransport } from '../mutations/transport.ts';
import { toAppError } from './errors.ts';

/** The part of the SDK's `Functions` service the transport uses. */
export interface FunctionsClient {
  createExecution(params: {
    functionId: string;
    body?: string;
    async?: boolean;
    method?: ExecutionMethod;
    headers?: object;
  }): Promise<Pick<Models.Execution, '$id' | 'responseStatusCode' | 'responseBody'>>;
}

/** The SDK services the transport writes with (the app's SDK facade has them all). */
export interface TransportSdk {
  functions: FunctionsClient;
  teams: Pick<Teams, 'updateMembership' | 'deleteMembership' | 'createMembership'>;
  realtime: Pick<Realtime, 'upsertPresence'>;
}

/**
 * The product's `SERVER_ERROR` for an execution that gave no answer the app can read (the
 * function failed to load, crashed, timed out): its reference is the execution's id, which the
 * backend's log line and the execution's `errors` name too.
 */
function serverError(
  execution: Pick<Models.Execution, '$id' | 'responseStatusCode' | 'responseBody'>,
): AppError {
  const answer = execution.responseBody ? 'an unreadable answer' : 'an empty answer';
  console.error(
    `[livedesk] error ref ${execution.$id}: execution ${execution.$id} ended ${execution.responseStatusCode} with ${answer}`,
  );
  return new AppError('SERVER_ERROR', `Something went wrong (ref ${execution.$id}).`, {
    reference: execution.$id,
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
  return parseFunctionAnswer(execution, isOrderDocument);
}

/**
 * Reads a synchronous execution of one of our functions: status 200 with an answer `accept`
 * recognizes, or `{error: {code, message}}` (thrown as that `AppError`); anything else is a
 * `SERVER_ERROR` naming the execution.
 *
 * @throws AppError
 */
export function parseFunctionAnswer<T>(
  execution: Pick<Models.Execution, '$id' | 'responseStatusCode' | 'responseBody'>,
  accept: (body: unknown) => body is T,
): T {
  let body: unknown;
  try {
    body = JSON.parse(execution.responseBody);
  } catch {
    throw serverError(execution);
  }
  if (execution.responseStatusCode === 200 && accept(body)) return body;
  throw appErrorFromBody(body) ?? serverError(execution);
}

function isDocument(value: unknown): value is DocumentMeta {
  return (
    typeof value === 'object' && value !== null && typeof (value as DocumentMeta).$id === 'string'
  );
}

function isNoteWrite(value: unknown): value is { note: DocumentMeta; order: DocumentMeta } {
  const answer = value as { note?: unknown; order?: unknown } | null;
  return isDocument(answer?.note) && isDocument(answer?.order);
}

/** Runs an SDK call, converting what it throws (the one conversion, `toAppError`). */
export async function call<T>(doing: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toAppError(error, doing);
  }
}

/** Runs one of our functions synchronously with `body` as its JSON request. */
export function executeFunction(
  functions: FunctionsClient,
  doing: string,
  functionId: string,
  body: object,
) {
  return call(doing, () =>
    functions.createExecution({
      functionId,
      body: JSON.stringify(body),
      async: false,
      method: ExecutionMethod.POST,
      headers: { 'content-type': 'application/json' },
    }),
  );
}

/**
 * The production {@link DeskTransport}: workflow actions, notes and products run their functions
 * (`order-action`, `note-action`, `product-action`) synchronously with the request as the JSON
 * body — the collections take no client writes; team
 * changes are the Teams API; presence goes over the tab's realtime socket. `joinUrl` is where an
 * invitation's link leads (the app's `/join`).
 */
export function createAppwriteTransport(sdk: TransportSdk, joinUrl: string): DeskTransport {
  const run = (doing: string, functionId: string, body: object) =>
    executeFunction(sdk.functions, doing, functionId, body);

  return {
    newId: () => ID.unique(),

    async performOrderAction(request: OrderActionRequest | RefundRequest) {
      return parseExecution(await run('do that', FUNCTIONS.orderAction, request));
    },

    async createNote(note) {
      // The author is the caller as the function knows them; `authorId`/`authorName` stay local.
      const execution = await run('add notes', FUNCTIONS.noteAction, {
        action: 'add',
        noteId: note.id,
        orderId: note.orderId,
        body: note.body,
      });
      return parseFunctionAnswer(execution, isNoteWrite).note;
    },

    async createProduct(id, product) {
      const execution = await run('edit the catalog', FUNCTIONS.productAction, {
        action: 'create',
        productId: id,
        product,
      });
      return parseFunctionAnswer(execution, isDocument);
    },

    async updateProduct(id, changes) {
      const execution = await run('edit the catalog', FUNCTIONS.productAction, {
        action: 'update',
        productId: id,
        changes,
      });
      return parseFunctionAnswer(execution, isDocument);
    },

    async updateMemberRoles(membershipId, roles) {
      return (await call('change roles', () =>
        sdk.teams.updateMembership({ teamId: DESK_TEAM_ID, membershipId, roles }),
      )) as unknown as DocumentMeta;
    },

    async removeMember(membershipId) {
      await call('remove members', () =>
        sdk.teams.deleteMembership({ teamId: DESK_TEAM_ID, membershipId }),
      );
    },

    async inviteMember(invite) {
      return (await call('invite members', () =>
        sdk.teams
          .createMembership({
            teamId: DESK_TEAM_ID,
            roles: invite.roles,
            email: invite.email,
            ...(invite.name ? { name: invite.name } : {}),
            url: joinUrl,
          })
          .catch((error: unknown) => {
            // Accepted since this desk last heard of the team.
            if ((error as { type?: unknown }).type === 'membership_already_confirmed')
              throw new AppError('VALIDATION', `${invite.email} is already on the team.`, {
                field: 'email',
              });
            throw error;
          }),
      )) as unknown as DocumentMeta;
    },

    async announcePresence(presence) {
      await call('share what you are viewing', () =>
        sdk.realtime.upsertPresence({
          presenceId: presence.presenceId,
          status: presence.status,
          permissions: [
            Permission.read(Role.team(DESK_TEAM_ID)),
            Permission.update(Role.user(presence.userId)),
            Permission.delete(Role.user(presence.userId)),
          ],
          metadata: { orderId: presence.orderId, name: presence.name },
        }),
      );
    },
  };
}
