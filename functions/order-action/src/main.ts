import { Query, Teams, Users, type Client } from 'node-appwrite';
import { AppError } from '../../../domain/errors.ts';
import { DESK_TEAM_ID } from '../../../domain/ids.ts';
import type { OrderDocument } from '../../../domain/order.ts';
import {
  decideOrderAction,
  isOrderAction,
  type Actor,
  type OrderActionRequest,
} from '../../../domain/order-machine.ts';
import { highestDeskRole } from '../../../domain/roles.ts';
import {
  activityIdFor,
  functionClient,
  readOrder,
  refuse,
  serverError,
  toOrder,
  updateOrderIfUnchanged,
  writeActivity,
} from '../../_shared/appwrite.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';

const ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/** Validates the request body `{orderId, action, expectedRev, amountCents?}`. */
export function parseRequest(bodyText: string): OrderActionRequest {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new AppError('VALIDATION', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION', 'The request body must be a JSON object.');
  const { orderId, action, expectedRev, amountCents } = body as Record<string, unknown>;
  if (typeof orderId !== 'string' || !ID.test(orderId))
    throw new AppError('VALIDATION', 'orderId must be an order id.', { field: 'orderId' });
  if (action === 'refund')
    throw new AppError('VALIDATION', 'Refunds are not available yet.', { field: 'action' });
  if (!isOrderAction(action))
    throw new AppError('VALIDATION', `Unknown action "${String(action)}".`, { field: 'action' });
  if (typeof expectedRev !== 'number' || !Number.isInteger(expectedRev) || expectedRev < 0)
    throw new AppError('VALIDATION', 'expectedRev must be a whole number ≥ 0.', {
      field: 'expectedRev',
    });
  if (
    amountCents !== undefined &&
    (typeof amountCents !== 'number' || !Number.isInteger(amountCents) || amountCents < 0)
  )
    throw new AppError('VALIDATION', 'amountCents must be a whole number ≥ 0.', {
      field: 'amountCents',
    });
  return {
    orderId,
    action,
    expectedRev,
    ...(amountCents === undefined ? {} : { amountCents }),
  };
}

/** The caller as a desk actor: their `desk` membership's highest role (null: not a member). */
async function loadActor(client: Client, userId: string): Promise<Actor> {
  const { memberships } = await new Teams(client).listMemberships({
    teamId: DESK_TEAM_ID,
    queries: [Query.equal('userId', userId), Query.limit(1)],
  });
  const membership = memberships.find((m) => m.userId === userId && m.confirm);
  const role = membership ? highestDeskRole(membership.roles) : null;
  let name = membership?.userName ?? '';
  if (role !== null && !name) name = (await new Users(client).get({ userId })).name;
  return { id: userId, name: name || 'A teammate', role };
}

/**
 * `order-action`: applies one workflow action to an order for the calling desk member. Checks
 * the caller's role, the order's `rev` and the state machine (`decideOrderAction`), writes the
 * order only if nobody changed it meanwhile (`X-Appwrite-Timestamp`), records the activity, and
 * answers the updated order (200) or `{error: {code, message, details?}}` (400/401/403/404/409/500).
 */
export default async function orderAction(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const userId = ctx.req.headers['x-appwrite-user-id'] ?? '';
    if (!userId) throw new AppError('AUTH_REQUIRED', 'Sign in to work on orders.');
    const request = parseRequest(ctx.req.bodyText);
    const client = functionClient(ctx.req);
    const actor = await loadActor(client, userId);
    const read = await readOrder(client, request.orderId);
    const now = Date.now();
    const decision = decideOrderAction(toOrder(read), request, actor, now);
    if (decision instanceof AppError) throw decision;
    const updated = await updateOrderIfUnchanged(client, read, decision);
    if (updated === 'conflict') {
      ctx.log(`write conflict on ${read.$id}: changed after rev ${read.rev} was read`);
      throw await conflictAfterRace(client, read, request, actor, now);
    }
    try {
      await writeActivity(client, {
        id: activityIdFor(read.$id, decision.patch.rev),
        orderId: read.$id,
        kind: decision.activity.kind,
        actorId: actor.id,
        actorName: actor.name,
        data: decision.activity.data,
        at: now,
      });
    } catch (error) {
      // The order changed; the caller must hear so. The missing timeline entry is logged.
      ctx.error(`activity for ${read.$id} rev ${decision.patch.rev} not written:`, error);
    }
    ctx.log(`${actor.name} (${actor.role}) ${request.action} ${read.$id} → rev ${updated.rev}`);
    return ctx.res.json(updated);
  } catch (error) {
    if (error instanceof AppError) return refuse(ctx, error);
    return serverError(ctx, error);
  }
}

/** Someone wrote the order between our read and our write: say who, from a fresh read. */
async function conflictAfterRace(
  client: Client,
  read: OrderDocument,
  request: OrderActionRequest,
  actor: Actor,
  now: number,
): Promise<AppError> {
  const fresh = await readOrder(client, read.$id);
  const again = decideOrderAction(toOrder(fresh), request, actor, now);
  if (again instanceof AppError) return again;
  const who = fresh.updatedByName ?? 'Someone';
  return new AppError('ORDER_CONFLICT', `${who} changed this order a moment ago.`, {
    currentRev: fresh.rev,
    by: who,
  });
}
