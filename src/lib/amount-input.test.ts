import { describe, expect, it } from 'vitest';
import { amountInput, parseAmountInput } from './amount-input.ts';

describe('parseAmountInput', () => {
  it('reads decimals after a point or a comma, and a euro sign before or after', () => {
    expect(parseAmountInput('3.80', 'en-US')).toBe(380);
    expect(parseAmountInput('3,8', 'en-US')).toBe(380);
    expect(parseAmountInput('€4', 'en-US')).toBe(400);
    expect(parseAmountInput(' 4 € ', 'en-US')).toBe(400);
    expect(parseAmountInput('4,50\u00a0€', 'de-DE')).toBe(450);
    expect(parseAmountInput('3.5', 'de-DE')).toBe(350);
    expect(parseAmountInput('0', 'en-US')).toBe(0);
  });

  it('reads thousands as the locale separates them', () => {
    expect(parseAmountInput('1,250.50', 'en-US')).toBe(125_050);
    expect(parseAmountInput('€1,250', 'en-US')).toBe(125_000);
    expect(parseAmountInput('1.250,50 €', 'de-DE')).toBe(125_050);
    expect(parseAmountInput('1.234', 'de-DE')).toBe(123_400);
    expect(parseAmountInput('1 250,50', 'fr-FR')).toBe(125_050);
    expect(parseAmountInput('1\u202f250,50\u00a0€', 'fr-FR')).toBe(125_050);
    expect(parseAmountInput('10.000,00', 'de-DE')).toBe(1_000_000);
  });

  it('refuses separators the locale does not write between thousands, instead of guessing', () => {
    for (const [text, locale] of [
      ['1.250,50', 'en-US'],
      ['1.234', 'en-US'],
      ['1 000', 'en-US'],
      ['1,250.50', 'de-DE'],
      ['1.250.50', 'de-DE'],
      ['12.50.00', 'de-DE'],
      ['1.25,50', 'de-DE'],
      ['0.015', 'de-DE'],
      ['1 250', 'de-DE'],
    ] as const)
      expect(parseAmountInput(text, locale), `${text} in ${locale}`).toBeNull();
  });

  it('keeps a minus sign, so a range check refuses it', () => {
    expect(parseAmountInput('-1', 'en-US')).toBe(-100);
    expect(parseAmountInput('€-0.50', 'en-US')).toBe(-50);
    expect(parseAmountInput('-€2', 'en-US')).toBe(-200);
    expect(parseAmountInput('-1.250,50', 'de-DE')).toBe(-125_050);
  });

  it('refuses what is not an amount', () => {
    for (const text of [
      '',
      '-',
      '1-',
      '--1',
      '-€-2',
      '1.2.3',
      '1e3',
      '12abc',
      '+1',
      '3.80 USD',
      '.5',
      '0.015',
      '3.50€x',
    ])
      expect(parseAmountInput(text, 'en-US'), text).toBeNull();
  });
});

describe('amountInput', () => {
  it('writes cents with the locale’s decimal separator and no thousands separator', () => {
    expect(amountInput(380, 'en-US')).toBe('3.80');
    expect(amountInput(125_050, 'en-US')).toBe('1250.50');
    expect(amountInput(125_050, 'de-DE')).toBe('1250,50');
    expect(amountInput(0, 'fr-FR')).toBe('0,00');
  });
});
