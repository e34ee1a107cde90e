import { describe, expect, it } from 'vitest';
import { unsupportedRoute } from './unsupported.ts';

describe('unsupportedRoute', () => {
  it('names the SDK method of an Appwrite route', () => {
    expect(unsupportedRoute('GET', '/locale/countries')).toBe('locale.listCountries');
    expect(unsupportedRoute('GET', '/avatars/flags/fr')).toBe('avatars.getFlag');
    expect(unsupportedRoute('GET', '/health/db')).toBe('health.getDB');
    expect(unsupportedRoute('GET', '/tablesdb/db1/tables/t1/rows')).toBe('tablesDB.listRows');
    expect(unsupportedRoute('POST', '/databases/db/collections/c/attributes/relationship')).toBe(
      'databases.createRelationshipAttribute',
    );
  });

  it('knows no path Appwrite does not have, nor another method on one it has', () => {
    expect(unsupportedRoute('GET', '/no/such/route')).toBeNull();
    expect(unsupportedRoute('DELETE', '/locale/countries')).toBeNull();
  });
});
