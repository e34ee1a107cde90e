import { describe, expect, it } from 'vitest';
import { StripeApiError } from './errors.ts';
import { allowOnly, applyMetadata, listLimit, optionalInteger, requiredString } from './params.ts';

function refusal(work: () => unknown): StripeApiError['body']['error'] {
  try {
    work();
  } catch (error) {
    if (error instanceof StripeApiError) return error.body.error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parameters', () => {
  it('merges metadata as Stripe does: set, remove with an empty value, clear with metadata=', () => {
    const current = { orderId: 'o1', keep: 'yes' };
    expect(applyMetadata(current, { metadata: { keep: '', extra: 'x' } })).toEqual({
      orderId: 'o1',
      extra: 'x',
    });
    expect(applyMetadata(current, { metadata: '' })).toEqual({});
    expect(applyMetadata(current, {})).toBe(current);
    expect(refusal(() => applyMetadata({}, { metadata: { ['k'.repeat(41)]: 'v' } })).message).toBe(
      'Metadata keys can have up to 40 characters.',
    );
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(refusal(() => applyMetadata({}, { metadata: many })).param).toBe('metadata');
  });

  it('refuses unknown, missing, empty and malformed parameters, unsaved by idempotency', () => {
    const unknown = refusal(() => allowOnly({ colour: 'blue' }, ['amount']));
    expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
    expect(refusal(() => requiredString({}, 'currency'))).toMatchObject({
      code: 'parameter_missing',
      message: 'Missing required param: currency.',
    });
    expect(refusal(() => requiredString({ currency: '' }, 'currency')).code).toBe(
      'parameter_invalid_empty',
    );
    expect(refusal(() => optionalInteger({ amount: '12.5' }, 'amount')).code).toBe(
      'parameter_invalid_integer',
    );
    expect(refusal(() => listLimit({ limit: '101' })).param).toBe('limit');
    expect(listLimit({})).toBe(10);
    const thrown = (() => {
      try {
        allowOnly({ x: '1' }, []);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(StripeApiError);
    expect((thrown as StripeApiError).remembered).toBe(false);
  });
});
