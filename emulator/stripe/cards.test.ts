import { describe, expect, it } from 'vitest';
import {
  brandOf,
  cardForNumber,
  cardForTestPaymentMethod,
  luhnValid,
  TEST_CARDS,
} from './cards.ts';

describe('test cards', () => {
  it('are all Luhn-valid and each number and pm_card_ id is listed once', () => {
    for (const card of TEST_CARDS) expect(luhnValid(card.number), card.number).toBe(true);
    const numbers = TEST_CARDS.map((card) => card.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    const methods = TEST_CARDS.flatMap((card) => card.paymentMethods);
    expect(new Set(methods).size).toBe(methods.length);
  });

  it('maps numbers (with spaces) and pm_card_ ids to the same outcome', () => {
    expect(cardForNumber('4242 4242 4242 4242').outcome).toEqual({ kind: 'succeed' });
    expect(cardForTestPaymentMethod('pm_card_visa')!.number).toBe('4242424242424242');
    const insufficient = cardForNumber('4000-0000-0000-9995');
    expect(insufficient.outcome).toMatchObject({
      kind: 'decline',
      decline: { code: 'card_declined', declineCode: 'insufficient_funds' },
    });
    expect(cardForTestPaymentMethod('pm_card_visa_chargeDeclinedInsufficientFunds')).toBe(
      insufficient,
    );
    expect(cardForNumber('4000008260003178').outcome).toMatchObject({
      kind: 'three_d_secure',
      after: { kind: 'decline', decline: { declineCode: 'insufficient_funds' } },
    });
    expect(cardForTestPaymentMethod('pm_card_nope')).toBeUndefined();
  });

  it('declines a number failing the Luhn check as incorrect, and a real card as live', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(cardForNumber('4242424242424241').outcome).toMatchObject({
      decline: { code: 'incorrect_number' },
    });
    expect(cardForNumber('4111111111111111').outcome).toMatchObject({
      decline: { declineCode: 'test_mode_live_card' },
    });
  });

  it('tells brands by prefix', () => {
    expect(brandOf('378282246310005')).toBe('amex');
    expect(brandOf('5555555555554444')).toBe('mastercard');
    expect(brandOf('2223003122003222')).toBe('mastercard');
    expect(brandOf('6011111111111117')).toBe('discover');
    expect(brandOf('4242424242424242')).toBe('visa');
  });
});
