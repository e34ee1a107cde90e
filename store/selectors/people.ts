import type { Actor } from '../../domain/order-machine.ts';
import type { EntityTable } from '../records/entity-table.ts';
import type { PresenceEntry, TeamMember } from '../records/people.ts';
import type { DeskState } from '../state.ts';

/** Someone else looking at an order. */
export interface Viewer {
  userId: string;
  name: string;
}

const viewerCache = new WeakMap<EntityTable<PresenceEntry>, Map<string, readonly Viewer[]>>();

/**
 * The people other than `me` viewing `orderId`, once each, by name. Memoized per presence
 * table, so the same array comes back until presences change.
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

/** Desk team members (invited ones too), by name. */
export function selectMembers(state: DeskState): readonly TeamMember[] {
  return state.memberList;
}

const confirmedCache = new WeakMap<readonly TeamMember[], readonly TeamMember[]>();

/** Members who accepted, by name (the assignee filter's choices). */
export function selectConfirmedMembers(state: DeskState): readonly TeamMember[] {
  let list = confirmedCache.get(state.memberList);
  if (!list) {
    list = state.memberList.filter((member) => member.confirmed);
    confirmedCache.set(state.memberList, list);
  }
  return list;
}

/** The signed-in actor, or null. */
export function selectActor(state: DeskState): Actor | null {
  return state.actor;
}
