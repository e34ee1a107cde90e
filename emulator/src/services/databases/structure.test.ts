import { afterAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../core/errors.ts';
import { checkStructure, isEmail, normalizeDatetime, numberFormat } from './structure.ts';
import { testCollection, testStore } from './test-fixtures.ts';

const fixture = testStore();
afterAll(() => fixture.close());
const collection = testCollection(fixture.catalog, {
  attributes: [
    ['string', { key: 'name', size: 5, required: true }],
    ['integer', { key: 'small', min: 0, max: 100 }],
    ['integer', { key: 'big', min: 1 }],
    ['float', { key: 'price', min: 0.5, max: 10 }],
    ['boolean', { key: 'active', default: true }],
    ['datetime', { key: 'at' }],
    ['email', { key: 'email' }],
    ['enum', { key: 'status', elements: ['a', 'b'] }],
    ['integer', { key: 'scores', array: true }],
  ],
});

function message(data: Record<string, unknown>): string {
  try {
    checkStructure(collection, data);
  } catch (error) {
    expect((error as ApiError).type).toBe('document_invalid_structure');
    return (error as ApiError).message.replace('Invalid document structure: ', '');
  }
  throw new Error('expected a structure error');
}

describe('numberFormat (PHP number_format)', () => {
  it('prints through a double, as PHP does', () => {
    expect(numberFormat(5000)).toBe('5,000');
    expect(numberFormat(2n ** 63n - 1n)).toBe('9,223,372,036,854,775,808');
    expect(numberFormat(-(2n ** 63n))).toBe('-9,223,372,036,854,775,808');
    expect(numberFormat(0.5)).toBe('1');
  });
});

describe('values', () => {
  it('normalizes dates to UTC with milliseconds, within MariaDB years', () => {
    expect(normalizeDatetime('2026-11-22T10:00:00+02:00')).toBe('2026-11-22T08:00:00.000+00:00');
    expect(normalizeDatetime('2026-11-22')).toBe('2026-11-22T00:00:00.000+00:00');
    expect(normalizeDatetime('0999-01-01')).toBeNull();
    expect(normalizeDatetime('garbage')).toBeNull();
    expect(normalizeDatetime(12)).toBeNull();
  });

  it('checks emails like FILTER_VALIDATE_EMAIL', () => {
    expect(isEmail('ana.lopez+desk@example.com')).toBe(true);
    expect(isEmail('ana@localhost')).toBe(false);
    expect(isEmail('not an email')).toBe(false);
  });
});

describe('checkStructure', () => {
  it('returns SQL values, defaults applied', () => {
    const checked = checkStructure(collection, {
      name: 'Ana',
      small: 3,
      at: '2026-01-01',
      scores: [1, 2],
      $createdAt: '2020-01-01T00:00:00Z',
    });
    expect(checked.values.get('name')).toBe('Ana');
    expect(checked.values.get('active')).toBe(1);
    expect(checked.values.get('at')).toBe('2026-01-01T00:00:00.000+00:00');
    expect(checked.values.get('scores')).toBe('[1,2]');
    expect(checked.values.get('email')).toBeNull();
    expect(checked.createdAt).toBe('2020-01-01T00:00:00.000+00:00');
  });

  it("answers Appwrite's Structure messages, in its order", () => {
    expect(message({ foo: 1 })).toBe('Missing required attribute "name"');
    expect(message({ name: 'a', foo: 1 })).toBe('Unknown attribute: "foo"');
    expect(message({ name: 'toolong' })).toBe(
      'Attribute "name" has invalid type. Value must be a valid string and no longer than 5 chars',
    );
    expect(message({ name: 'a', small: 1.5 })).toBe(
      'Attribute "small" has invalid format. Value must be a valid signed 32-bit integer between -2,147,483,648 and 2,147,483,647',
    );
    expect(message({ name: 'a', small: 101 })).toBe(
      'Attribute "small" has invalid format. Value must be a valid range between 0 and 100',
    );
    expect(message({ name: 'a', big: '7' })).toBe(
      'Attribute "big" has invalid format. Value must be a valid signed 64-bit integer between -9,223,372,036,854,775,808 and 9,223,372,036,854,775,808',
    );
    expect(message({ name: 'a', big: 0 })).toBe(
      'Attribute "big" has invalid format. Value must be a valid range between 1 and 9,223,372,036,854,775,808',
    );
    expect(message({ name: 'a', price: 'x' })).toBe(
      'Attribute "price" has invalid format. Value must be a valid float',
    );
    expect(message({ name: 'a', price: 11 })).toBe(
      'Attribute "price" has invalid format. Value must be a valid range between 1 and 10',
    );
    expect(message({ name: 'a', active: 'yes' })).toBe(
      'Attribute "active" has invalid type. Value must be a valid boolean',
    );
    expect(message({ name: 'a', at: 'soon' })).toBe(
      'Attribute "at" has invalid type. Value must be valid date between 1000-01-01 00:00:00 and 9999-12-31 23:59:59.',
    );
    expect(message({ name: 'a', email: 'nope' })).toBe(
      'Attribute "email" has invalid format. Value must be a valid email address',
    );
    expect(message({ name: 'a', status: 'c' })).toBe(
      'Attribute "status" has invalid format. Value must be one of (a, b)',
    );
    expect(message({ name: 'a', scores: 1 })).toBe('Attribute "scores" must be an array');
    expect(message({ name: 'a', scores: [1, 'x'] })).toBe(
      `Attribute "scores['1']" has invalid format. Value must be a valid signed 64-bit integer between -9,223,372,036,854,775,808 and 9,223,372,036,854,775,808`,
    );
    expect(message({ name: 'a', $createdAt: 'x' })).toBe(
      'Attribute "$createdAt" has invalid type. Value must be valid date between 1000-01-01 00:00:00 and 9999-12-31 23:59:59.',
    );
  });

  it('counts code points, not UTF-16 units', () => {
    expect(checkStructure(collection, { name: '😀😀😀😀😀' }).values.get('name')).toBe(
      '😀😀😀😀😀',
    );
  });

  it('rejects integers beyond 64 bits', () => {
    expect(message({ name: 'a', big: 2 ** 64 })).toContain('64-bit integer');
  });
});
