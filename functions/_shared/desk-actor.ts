import { Query, Teams, Users, type Client } from 'node-appwrite';
import { AppError } from '../../domain/errors.ts';
import { DESK_TEAM_ID } from '../../domain/ids.ts';
import type { Actor } from '../../domain/order-machine.ts';
import { highestDeskRole } from '../../domain/roles.ts';

/**
 * The caller as a desk actor: their confirmed `desk` membership's highest role (null: not a
 * member) and their name, read from Appwrite (never from the request).
 */
export async function loadDeskActor(client: Client, userId: string): Promise<Actor> {
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

/** The caller as a desk actor who is on the desk, or `FORBIDDEN`. */
export async function loadDeskMember(client: Client, userId: string): Promise<Actor> {
  const actor = await loadDeskActor(client, userId);
  if (actor.role === null)
    throw new AppError('FORBIDDEN', 'You don’t have permission to work on orders.');
  return actor;
}
