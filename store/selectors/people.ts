import type { Actor } from '../../domain/order-machine.ts';
import type { DeskState, PresenceEntry, TeamMember } from '../state.ts';
import type { EntityTable } from '../records/entity-table.ts';

/** Someone else looking at an order. */
export interface Viewer {
  userId: string;
  name: string;
}

const viewerCache = new WeakMap<EntityTable<PresenceEntry>, Map<string, readonly Viewer[]>>();

/**
 * The people other than `me` viewing `orderId`, by name. Memoized per presence table, so the
 * same array comes back until presences change.
 */
export function selectViewers(state: DeskState, orderId: string, me: string): readonly Viewer[] {
  let cache = viewerCache.get(state.presence);
  if (!cache) {
    cache = new Map();
    viewerCache.set(state.presence, cache);
  }
  const key = `${orderId}\u0000${me}`;
  let viewers = cache.get(key);
  if (!viewers) {
    const seen = new Map<string, Viewer>();
    state.presence.forEach((entry) => {
      if (entry.orderId === orderId && entry.userId !== me)
        seen.set(entry.userId, { userId: entry.userId, name: entry.name });
    });
    viewers = [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
    cache.set(key, viewers);
  }
  return viewers;
}

/** Desk team members by name. */
export function selectMembers(state: DeskState): readonly TeamMember[] {
  return state.memberList;
}

/** The signed-in actor, or null. */
export function selectActor(state: DeskState): Actor | null {
  return state.actor;
}
