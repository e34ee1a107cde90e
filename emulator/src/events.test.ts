import { describe, expect, it } from 'vitest';
import { eventOf } from './events.ts';
import type { CollectionRecord } from './services/databases/types.ts';
import type { BucketRecord } from './services/storage/models.ts';

function collection(documentSecurity: boolean): CollectionRecord {
  return {
    seq: 1,
    databaseSeq: 1,
    databaseId: 'desk',
    id: 'orders',
    name: 'Orders',
    enabled: true,
    documentSecurity,
    permissions: [
      { type: 'read', role: 'team:desk' },
      { type: 'create', role: 'users' },
    ],
    attributes: [],
    indexes: [],
    nextIndexSeq: 1,
    createdAt: '',
    updatedAt: '',
  };
}

function bucket(fileSecurity: boolean): BucketRecord {
  return {
    id: 'photos',
    createdAt: '',
    updatedAt: '',
    permissions: [
      { type: 'read', role: 'team:desk' },
      { type: 'create', role: 'users' },
    ],
    fileSecurity,
    name: 'Photos',
    enabled: true,
    maximumFileSize: 1000,
    allowedFileExtensions: [],
    compression: 'none',
    encryption: false,
    antivirus: false,
    transformations: true,
  };
}

describe('eventOf', () => {
  it("gives a document's event the collection's readers, and the document's own with document security", () => {
    const change = {
      resource: 'document' as const,
      action: 'update' as const,
      documentId: 'o1',
      permissions: ['read("user:ana")', 'update("user:ana")'],
      payload: { $id: 'o1' },
    };
    expect(eventOf({ ...change, collection: collection(false) }).roles).toEqual(['team:desk']);
    const secured = eventOf({ ...change, collection: collection(true) });
    expect(secured.roles).toEqual(['team:desk', 'user:ana']);
    expect(secured.events).toContain('databases.desk.collections.orders.documents.o1.update');
    expect(secured.events).toContain('databases.desk.tables.orders.rows.o1.update');
    expect(secured.channels).toContain('databases.desk.collections.orders.documents.o1.update');
    expect(secured.payload).toEqual({ $id: 'o1' });
  });

  it("sends a team's event to its role, and a deleted team's to its former members", () => {
    const team = { resource: 'team' as const, teamId: 'desk', payload: {} };
    const created = eventOf({ ...team, action: 'create', members: ['ana'] });
    expect(created.roles).toEqual(['team:desk']);
    expect(created.rolesChangedFor).toEqual(['ana']);
    expect(created.channels).toEqual(['teams', 'teams.desk', 'teams.create', 'teams.desk.create']);
    const deleted = eventOf({ ...team, action: 'delete', members: ['ana', 'ben'] });
    expect(deleted.roles).toEqual(['user:ana', 'user:ben']);
    expect(deleted.rolesChangedFor).toEqual(['ana', 'ben']);
    expect(deleted.events).toContain('teams.desk.delete');
  });

  it("sends a membership's event to its team and its user, whose roles change", () => {
    const event = eventOf({
      resource: 'membership',
      action: 'update.status',
      teamId: 'desk',
      membershipId: 'm1',
      userId: 'ana',
      payload: {},
    });
    expect(event.roles).toEqual(['team:desk', 'user:ana']);
    expect(event.rolesChangedFor).toEqual(['ana']);
    expect(event.events).toContain('teams.desk.memberships.m1.update.status');
    expect(event.channels).toContain('memberships.m1.update.status');
  });

  it("sends account changes to the user's account channels only", () => {
    const user = eventOf({ resource: 'user', action: 'update.name', userId: 'ana', payload: {} });
    expect(user.channels).toEqual(['account', 'account.ana']);
    expect(user.roles).toEqual(['user:ana']);
    expect(user.events).toContain('users.ana.update.name');
    const session = eventOf({
      resource: 'session',
      action: 'delete',
      userId: 'ana',
      sessionId: 's1',
      payload: {},
    });
    expect(session.events).toContain('users.ana.sessions.s1.delete');
    expect(session.roles).toEqual(['user:ana']);
  });

  it('gives executions and presences to the readers of their permissions; functions to no client', () => {
    const execution = eventOf({
      resource: 'execution',
      action: 'create',
      functionId: 'f',
      executionId: 'e',
      permissions: ['read("user:ana")'],
      payload: {},
    });
    expect(execution.roles).toEqual(['user:ana']);
    expect(execution.channels).toEqual([
      'executions',
      'executions.e',
      'functions.f',
      'executions.create',
      'executions.e.create',
      'functions.f.create',
    ]);
    const presence = eventOf({
      resource: 'presence',
      action: 'upsert',
      presenceId: 'p',
      permissions: ['delete("user:ana")', 'read("any")'],
      payload: {},
    });
    expect(presence.roles).toEqual(['any']);
    expect(presence.channels).toContain('presences.p.upsert');
    const fn = eventOf({ resource: 'function', action: 'create', functionId: 'f', payload: {} });
    expect(fn).toMatchObject({ channels: [], roles: [] });
    expect(fn.events).toContain('functions.f.create');
  });

  it("gives a file's event the bucket's readers, and the file's own with file security", () => {
    const change = {
      resource: 'file' as const,
      action: 'create' as const,
      fileId: 'f1',
      permissions: ['read("user:ben")', 'delete("user:ben")'],
      payload: { $id: 'f1' },
    };
    expect(eventOf({ ...change, bucket: bucket(false) }).roles).toEqual(['team:desk']);
    const secured = eventOf({ ...change, bucket: bucket(true) });
    expect(secured.roles).toEqual(['team:desk', 'user:ben']);
    expect(secured.channels).toEqual([
      'files',
      'buckets.photos.files',
      'buckets.photos.files.f1',
      'files.create',
      'buckets.photos.files.create',
      'buckets.photos.files.f1.create',
    ]);
    expect(secured.events).toContain('buckets.photos.files.f1.create');
    expect(secured.events).toContain('buckets.*.files.*.create');
    expect(secured.events).toContain('buckets.photos.files.*');
    expect(secured.payload).toEqual({ $id: 'f1' });
  });
});
