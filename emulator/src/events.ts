import {
  documentChannels,
  documentEvents,
  generateEvents,
  type BackendEvent,
} from './core/events.ts';
import { rolesFor, rolesIn } from './core/permissions.ts';
import type { CollectionRecord } from './services/databases/types.ts';
import type { BucketRecord } from './services/storage/models.ts';

/** A resource as the API returns it (the event's payload). */
type Model = Record<string, unknown>;

/**
 * A change a service's store made, as it reports it (`backend.publish`): the resource, what
 * happened to it, the ids its event names need, and its payload (the model the API answers with).
 */
export type Change =
  | { resource: 'user'; action: string; userId: string; payload: Model }
  | {
      resource: 'session';
      action: 'create' | 'delete';
      userId: string;
      sessionId: string;
      payload: Model;
    }
  | {
      resource: 'team';
      action: 'create' | 'update' | 'delete';
      teamId: string;
      /** Users whose roles the change alters: the creator of a new team, the members of a deleted one. */
      members: readonly string[];
      payload: Model;
    }
  | {
      resource: 'membership';
      action: 'create' | 'update' | 'update.status' | 'delete';
      teamId: string;
      membershipId: string;
      userId: string;
      payload: Model;
    }
  | {
      resource: 'document';
      action: 'create' | 'update' | 'upsert' | 'delete';
      collection: CollectionRecord;
      documentId: string;
      /** The document's formatted permissions. */
      permissions: readonly string[];
      payload: Model;
    }
  | {
      resource: 'file';
      action: 'create' | 'update' | 'delete';
      bucket: BucketRecord;
      fileId: string;
      /** The file's formatted permissions. */
      permissions: readonly string[];
      payload: Model;
    }
  | {
      resource: 'function';
      action: 'create' | 'update' | 'delete';
      functionId: string;
      payload: Model;
    }
  | {
      resource: 'execution';
      action: 'create' | 'update';
      functionId: string;
      executionId: string;
      permissions: readonly string[];
      payload: Model;
    }
  | {
      resource: 'presence';
      action: 'upsert' | 'update' | 'delete';
      presenceId: string;
      permissions: readonly string[];
      payload: Model;
    };

/** A resource's realtime channels: the family, the resource, and each with `.action`. */
function channelsWithAction(family: string, id: string, action: string): string[] {
  return [family, `${family}.${id}`, `${family}.${action}`, `${family}.${id}.${action}`];
}

/**
 * The one place where a change becomes Appwrite's event (as Appwrite's `Realtime::fromPayload`
 * does): its names (for function triggers and realtime), its realtime channels, and the roles
 * that may receive it (`any` for everyone; none: no realtime client).
 */
export function eventOf(change: Change): Omit<BackendEvent, 'timestamp'> {
  const { payload } = change;
  switch (change.resource) {
    case 'user':
      return {
        events: generateEvents(`users.[userId].${change.action}`, { userId: change.userId }),
        channels: ['account', `account.${change.userId}`],
        roles: [`user:${change.userId}`],
        payload,
      };
    case 'session':
      return {
        events: generateEvents(`users.[userId].sessions.[sessionId].${change.action}`, {
          userId: change.userId,
          sessionId: change.sessionId,
        }),
        channels: ['account', `account.${change.userId}`],
        roles: [`user:${change.userId}`],
        payload,
      };
    case 'team':
      return {
        events: generateEvents(`teams.[teamId].${change.action}`, { teamId: change.teamId }),
        channels: channelsWithAction('teams', change.teamId, change.action),
        // A deleted team's role is gone: its former members receive the event.
        roles:
          change.action === 'delete'
            ? change.members.map((userId) => `user:${userId}`)
            : [`team:${change.teamId}`],
        payload,
        rolesChangedFor: [...change.members],
      };
    case 'membership':
      return {
        events: generateEvents(`teams.[teamId].memberships.[membershipId].${change.action}`, {
          teamId: change.teamId,
          membershipId: change.membershipId,
        }),
        channels: channelsWithAction('memberships', change.membershipId, change.action),
        roles: [`team:${change.teamId}`, `user:${change.userId}`],
        payload,
        rolesChangedFor: [change.userId],
      };
    case 'document': {
      const { collection, documentId, action } = change;
      // The collection's readers, and the document's own with document security.
      const roles = new Set(rolesFor(collection.permissions, 'read'));
      if (collection.documentSecurity)
        for (const role of rolesIn(change.permissions, 'read')) roles.add(role);
      return {
        events: documentEvents(collection.databaseId, collection.id, documentId, action),
        channels: documentChannels(collection.databaseId, collection.id, documentId, action),
        roles: [...roles],
        payload,
      };
    }
    case 'file': {
      const { bucket, fileId, action } = change;
      // The bucket's readers, and the file's own with file security.
      const roles = new Set(rolesFor(bucket.permissions, 'read'));
      if (bucket.fileSecurity)
        for (const role of rolesIn(change.permissions, 'read')) roles.add(role);
      const channels = [
        'files',
        `buckets.${bucket.id}.files`,
        `buckets.${bucket.id}.files.${fileId}`,
      ];
      return {
        events: generateEvents(`buckets.[bucketId].files.[fileId].${action}`, {
          bucketId: bucket.id,
          fileId,
        }),
        channels: [...channels, ...channels.map((channel) => `${channel}.${action}`)],
        roles: [...roles],
        payload,
      };
    }
    case 'function':
      // Function events reach no realtime client (Appwrite sends them to the console only), but
      // other functions may be triggered by them.
      return {
        events: generateEvents(`functions.[functionId].${change.action}`, {
          functionId: change.functionId,
        }),
        channels: [],
        roles: [],
        payload,
      };
    case 'execution': {
      const { functionId, executionId, action } = change;
      const channels = ['executions', `executions.${executionId}`, `functions.${functionId}`];
      return {
        events: generateEvents(`functions.[functionId].executions.[executionId].${action}`, {
          functionId,
          executionId,
        }),
        channels: [...channels, ...channels.map((channel) => `${channel}.${action}`)],
        roles: rolesIn(change.permissions, 'read'),
        payload,
      };
    }
    case 'presence':
      return {
        events: generateEvents(`presences.[presenceId].${change.action}`, {
          presenceId: change.presenceId,
        }),
        channels: channelsWithAction('presences', change.presenceId, change.action),
        roles: rolesIn(change.permissions, 'read'),
        payload,
      };
  }
}
