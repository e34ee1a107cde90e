import { Permission, Role, type Models } from 'appwrite';
import { useEffect, useState } from 'react';
import { DESK_TEAM_ID } from '../../../domain/ids.ts';
import { sdk, subscribe } from '../../lib/appwrite.ts';

/** Someone else looking at an order. */
export interface Viewer {
  userId: string;
  name: string;
}

interface PresenceInfo {
  userId: string;
  name: string;
  orderId: string | null;
}

function infoOf(
  presence: Partial<Models.Presence> & { userId?: string; metadata?: unknown },
): PresenceInfo | null {
  if (!presence.userId) return null;
  const metadata = (presence.metadata ?? {}) as { orderId?: unknown; name?: unknown };
  return {
    userId: presence.userId,
    name: typeof metadata.name === 'string' ? metadata.name : 'Someone',
    orderId: typeof metadata.orderId === 'string' ? metadata.orderId : null,
  };
}

/** A presence id for a user viewing an order (Appwrite keeps one presence per user and its first id). */
export function presenceIdFor(userId: string, orderId: string): string {
  return `${userId}-${orderId}`.replace(/[^a-zA-Z0-9._-]/g, '').slice(0, 36);
}

/** Pure: the viewers of `orderId` other than `me`, by name, from presences keyed by id. */
export function viewersOf(
  presences: ReadonlyMap<string, PresenceInfo>,
  orderId: string,
  me: string,
): Viewer[] {
  const seen = new Map<string, Viewer>();
  for (const info of presences.values())
    if (info.orderId === orderId && info.userId !== me)
      seen.set(info.userId, { userId: info.userId, name: info.name });
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Announces that `me` is viewing `orderId` (Appwrite presence over the tab's realtime socket,
 * readable by the desk team) and returns who else is viewing it, live.
 */
export function useOrderPresence(orderId: string, me: { id: string; name: string }): Viewer[] {
  const [presences, setPresences] = useState<ReadonlyMap<string, PresenceInfo>>(new Map());

  useEffect(() => {
    const { realtime } = sdk();
    const permissions = [
      Permission.read(Role.team(DESK_TEAM_ID)),
      Permission.update(Role.user(me.id)),
      Permission.delete(Role.user(me.id)),
    ];
    const presenceId = presenceIdFor(me.id, orderId);
    void realtime.upsertPresence({
      presenceId,
      status: 'viewing',
      permissions,
      metadata: { orderId, name: me.name },
    });
    return () => {
      void realtime.upsertPresence({
        presenceId,
        status: 'online',
        permissions,
        metadata: { orderId: null, name: me.name },
      });
    };
  }, [orderId, me.id, me.name]);

  useEffect(() => {
    let live = true;
    const unsubscribe = subscribe<Models.Presence>(['presences'], (event) => {
      const id = event.payload.$id;
      const deleted = event.events.some((name) => name.endsWith('.delete'));
      const info = deleted ? null : infoOf(event.payload);
      setPresences((current) => {
        const next = new Map(current);
        if (info) next.set(id, info);
        else next.delete(id);
        return next;
      });
    });
    sdk()
      .presences.list()
      .then(({ presences: list }) => {
        if (!live) return;
        setPresences((current) => {
          const next = new Map(current);
          for (const presence of list) {
            const info = infoOf(presence);
            if (info && !next.has(presence.$id)) next.set(presence.$id, info);
          }
          return next;
        });
      })
      .catch(() => {});
    return () => {
      live = false;
      unsubscribe();
    };
  }, []);

  return viewersOf(presences, orderId, me.id);
}
