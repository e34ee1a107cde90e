import { describe, expect, it } from 'vitest';
import type { Permission } from '../../core/permissions.ts';
import {
  assertBucketVisible,
  assertFileAccess,
  assertMayCreate,
  fileReach,
  readersOf,
  type BucketRules,
  type StorageCaller,
} from './access.ts';

const member: StorageCaller = {
  isKey: false,
  roles: new Set(['any', 'users', 'user:ana', 'team:desk']),
};
const other: StorageCaller = { isKey: false, roles: new Set(['any', 'users', 'user:ben']) };
const key: StorageCaller = { isKey: true, roles: new Set() };
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

  it('sends events to the bucket’s readers, plus the file’s with fileSecurity', () => {
    expect(readersOf(bucket(), [read('user:ben')])).toEqual(['team:desk']);
    expect(readersOf(bucket({ fileSecurity: true }), [read('user:ben')]).sort()).toEqual([
      'team:desk',
      'user:ben',
    ]);
  });
});
