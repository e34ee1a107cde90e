import { describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions.ts';
import {
  assertBucketVisible,
  assertFileAccess,
  assertMayCreate,
  filePermissions,
  fileReach,
  type BucketRules,
  type StorageCaller,
} from './access.ts';

const member: StorageCaller = {
  isKey: false,
  userId: 'ana',
  roles: new Set(['any', 'users', 'user:ana', 'team:desk']),
};
const other: StorageCaller = {
  isKey: false,
  userId: 'ben',
  roles: new Set(['any', 'users', 'user:ben']),
};
const guest: StorageCaller = { isKey: false, userId: null, roles: new Set(['any', 'guests']) };
const key: StorageCaller = { isKey: true, userId: null, roles: new Set() };
const read = (role: string): Permission => ({ type: 'read', role });

function bucket(rules: Partial<BucketRules> = {}): BucketRules {
  return { enabled: true, fileSecurity: false, permissions: [read('team:desk')], ...rules };
}

const outcome = (fn: () => unknown) => {
  try {
    return fn() ?? 'allowed';
  } catch (error) {
    return (error as { type?: string }).type;
  }
};

describe('file access (Appwrite’s model)', () => {
  it('hides a missing or disabled bucket from everyone but keys', () => {
    expect(outcome(() => assertBucketVisible(null, key))).toBe('storage_bucket_not_found');
    const disabled = bucket({ enabled: false });
    expect(outcome(() => assertBucketVisible(disabled, member))).toBe('storage_bucket_not_found');
    expect(assertBucketVisible(disabled, key)).toBe(disabled);
  });

  it('lets the bucket decide without fileSecurity', () => {
    expect(fileReach(bucket(), member, 'read')).toBe('bucket');
    expect(outcome(() => fileReach(bucket(), other, 'read'))).toBe('user_unauthorized');
    expect(outcome(() => assertMayCreate(bucket(), member))).toBe('user_unauthorized');
    expect(
      outcome(() =>
        assertMayCreate(bucket({ permissions: [{ type: 'create', role: 'users' }] }), other),
      ),
    ).toBe('allowed');
  });

  it('with fileSecurity opens single files through their own permissions', () => {
    const secured = bucket({ fileSecurity: true, permissions: [] });
    const reach = fileReach(secured, other, 'read');
    expect(reach).toBe('file');
    expect(outcome(() => assertFileAccess(reach, [read('user:ben')], other, 'read'))).toBe(
      'allowed',
    );
    expect(outcome(() => assertFileAccess(reach, [read('user:ana')], other, 'read'))).toBe(
      'storage_file_not_found',
    );
    expect(
      outcome(() =>
        assertFileAccess(fileReach(secured, other, 'update'), [read('user:ben')], other, 'update'),
      ),
    ).toBe('user_unauthorized');
    expect(fileReach(secured, key, 'delete')).toBe('bucket');
  });

  it('gives a new file its user’s permissions unless it names its own, which a user must hold', () => {
    expect(filePermissions(undefined, member)).toEqual([
      { type: 'read', role: 'user:ana' },
      { type: 'update', role: 'user:ana' },
      { type: 'delete', role: 'user:ana' },
    ]);
    expect(filePermissions(null, guest)).toEqual([]);
    expect(filePermissions(undefined, key)).toEqual([]);
    expect(filePermissions(['read("team:desk")'], member)).toEqual([read('team:desk')]);
    expect(outcome(() => filePermissions(['read("team:desk")'], other))).toBe('user_unauthorized');
    expect(filePermissions(['read("team:desk")'], key)).toEqual([read('team:desk')]);
    expect(outcome(() => filePermissions(['create("any")'], key))).toBe('general_argument_invalid');
  });
});
