import {
  ExecutionMethod,
  ID,
  Permission,
  Role,
  type Databases,
  type Models,
  type Realtime,
  type Teams,
} from 'appwrite';
import { AppError, appErrorFromBody } from '../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderActionRequest } from '../../domain/order-machine.ts';
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
  databases: Pick<Databases, 'createDocument' | 'updateDocument'>;
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
  let body: unknown;
  try {
    body = JSON.parse(execution.responseBody);
  } catch {
    throw serverError(execution);
  }
  if (execution.responseStatusCode === 200 && isOrderDocument(body)) return body;
  throw appErrorFromBody(body) ?? serverError(execution);
}

/** Where products are written. */
const PRODUCTS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.products } as const;

/** Runs an SDK call, converting what it throws (the one conversion, `toAppError`). */
async function call<T>(doing: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toAppError(error, doing);
  }
}

/**
 * The production {@link DeskTransport}: workflow actions run the `order-action` function
 * synchronously with the request as its JSON body; notes and products are documents written
 * through the SDK (until functions write them: then only these two methods change); team
 * changes are the Teams API; presence goes over the tab's realtime socket. `joinUrl` is where an
 * invitation's link leads (the app's `/join`).
 */
export function createAppwriteTransport(sdk: TransportSdk, joinUrl: string): DeskTransport {
  return {
    newId: () => ID.unique(),

    async performOrderAction(request: OrderActionRequest) {
      const execution = await call('do that', () =>
        sdk.functions.createExecution({
          functionId: FUNCTIONS.orderAction,
          body: JSON.stringify(request),
          async: false,
          method: ExecutionMethod.POST,
          headers: { 'content-type': 'application/json' },
        }),
      );
      return parseExecution(execution);
    },

    createNote(note) {
      return call('add notes', () =>
        sdk.databases.createDocument<Models.DefaultDocument>({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.notes,
          documentId: note.id,
          data: {
            orderId: note.orderId,
            authorId: note.authorId,
            authorName: note.authorName,
            body: note.body,
            deleted: false,
          },
        }),
      );
    },

    createProduct: (id, product) =>
      call('edit the catalog', () =>
        sdk.databases.createDocument<Models.DefaultDocument>({
          ...PRODUCTS,
          documentId: id,
          data: product,
        }),
      ),

    updateProduct: (id, changes) =>
      call('edit the catalog', () =>
        sdk.databases.updateDocument<Models.DefaultDocument>({
          ...PRODUCTS,
          documentId: id,
          data: changes,
        }),
      ),

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
        sdk.teams.createMembership({
          teamId: DESK_TEAM_ID,
          roles: invite.roles,
          email: invite.email,
          ...(invite.name ? { name: invite.name } : {}),
          url: joinUrl,
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
