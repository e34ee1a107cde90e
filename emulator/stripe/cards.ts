/** A decline as Stripe reports it on the charge and in the `card_error`. */
export interface Decline {
  code: string;
  declineCode?: string;
  message: string;
  /** The card field the error names (`cvc`, `exp_month`, `number`). */
  param?: string;
}

/**
 * What a confirmation with a card does: it succeeds, is declined, asks for 3-D Secure first
 * (then does `after` once the customer completes it), or — a double-only card — stays
 * `processing` for a while and then succeeds.
 */
export type CardOutcome =
  | { kind: 'succeed' }
  | { kind: 'decline'; decline: Decline }
  | { kind: 'three_d_secure'; after: CardOutcome }
  | { kind: 'processing' };

/** A test card: its number, how Stripe reports it, and what it does. */
export interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard' | 'amex' | 'discover';
  funding: 'credit' | 'debit';
  /** The `pm_card_…` test PaymentMethods that stand for it. */
  paymentMethods: readonly string[];
  outcome: CardOutcome;
}

const SUCCEED: CardOutcome = { kind: 'succeed' };

/** Stripe's messages for the declines the double produces. */
export const DECLINES = {
  generic: {
    code: 'card_declined',
    declineCode: 'generic_decline',
    message: 'Your card was declined.',
  },
  insufficientFunds: {
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  lost: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  stolen: { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' },
  fraudulent: {
    code: 'card_declined',
    declineCode: 'fraudulent',
    message: 'Your card was declined.',
  },
  velocity: {
    code: 'card_declined',
    declineCode: 'card_velocity_exceeded',
    message: 'Your card was declined.',
  },
  expired: {
    code: 'expired_card',
    declineCode: 'expired_card',
    message: 'Your card has expired.',
    param: 'exp_month',
  },
  incorrectCvc: {
    code: 'incorrect_cvc',
    declineCode: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
    param: 'cvc',
  },
  processingError: {
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
  incorrectNumber: {
    code: 'incorrect_number',
    message: 'Your card number is incorrect.',
    param: 'number',
  },
  liveCard: {
    code: 'card_declined',
    declineCode: 'test_mode_live_card',
    message:
      'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
  },
} as const satisfies Record<string, Decline>;

/** The message and code of a failed 3-D Secure authentication. */
export const AUTHENTICATION_FAILURE = {
  code: 'payment_intent_authentication_failure',
  message:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

const decline = (d: Decline): CardOutcome => ({ kind: 'decline', decline: d });
const threeDS = (after: CardOutcome): CardOutcome => ({ kind: 'three_d_secure', after });

/** Stripe's official test cards that the double knows (docs.stripe.com/testing). */
export const TEST_CARDS: readonly TestCard[] = [
  card('4242424242424242', 'visa', ['pm_card_visa'], SUCCEED),
  card('4000056655665556', 'visa', ['pm_card_visa_debit'], SUCCEED, 'debit'),
  card('5555555555554444', 'mastercard', ['pm_card_mastercard'], SUCCEED),
  card('378282246310005', 'amex', ['pm_card_amex'], SUCCEED),
  card('6011111111111117', 'discover', ['pm_card_discover'], SUCCEED),
  card('4000000000000002', 'visa', ['pm_card_visa_chargeDeclined'], decline(DECLINES.generic)),
  card(
    '4000000000009995',
    'visa',
    ['pm_card_visa_chargeDeclinedInsufficientFunds'],
    decline(DECLINES.insufficientFunds),
  ),
  card('4000000000009987', 'visa', ['pm_card_visa_chargeDeclinedLostCard'], decline(DECLINES.lost)),
  card(
    '4000000000009979',
    'visa',
    ['pm_card_visa_chargeDeclinedStolenCard'],
    decline(DECLINES.stolen),
  ),
  card(
    '4000000000006975',
    'visa',
    ['pm_card_visa_chargeDeclinedVelocityLimitExceeded'],
    decline(DECLINES.velocity),
  ),
  card(
    '4100000000000019',
    'visa',
    ['pm_card_radarBlock', 'pm_card_chargeDeclinedFraudulent'],
    decline(DECLINES.fraudulent),
  ),
  card(
    '4000000000000069',
    'visa',
    ['pm_card_chargeDeclinedExpiredCard'],
    decline(DECLINES.expired),
  ),
  card(
    '4000000000000127',
    'visa',
    ['pm_card_chargeDeclinedIncorrectCvc'],
    decline(DECLINES.incorrectCvc),
  ),
  card(
    '4000000000000119',
    'visa',
    ['pm_card_chargeDeclinedProcessingError'],
    decline(DECLINES.processingError),
  ),
  card('4000002500003155', 'visa', ['pm_card_authenticationRequiredOnSetup'], threeDS(SUCCEED)),
  card('4000002760003184', 'visa', ['pm_card_authenticationRequired'], threeDS(SUCCEED)),
  card('4000000000003220', 'visa', ['pm_card_threeDSecure2Required'], threeDS(SUCCEED)),
  card(
    '4000008260003178',
    'visa',
    ['pm_card_authenticationRequiredChargeDeclinedInsufficientFunds'],
    threeDS(decline(DECLINES.insufficientFunds)),
  ),
  // Not a Stripe card: the double's way to exercise `processing` (cards never enter it on Stripe).
  card('4000000000000093', 'visa', ['pm_card_double_processing'], { kind: 'processing' }),
];

function card(
  number: string,
  brand: TestCard['brand'],
  paymentMethods: string[],
  outcome: CardOutcome,
  funding: TestCard['funding'] = 'credit',
): TestCard {
  return { number, brand, funding, paymentMethods, outcome };
}

const BY_NUMBER = new Map(TEST_CARDS.map((c) => [c.number, c]));
const BY_PAYMENT_METHOD = new Map(TEST_CARDS.flatMap((c) => c.paymentMethods.map((pm) => [pm, c])));

/** Whether `digits` passes the Luhn check card numbers carry. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card brand a number's prefix names. */
export function brandOf(digits: string): TestCard['brand'] {
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
  if (/^6(011|5)/.test(digits)) return 'discover';
  return 'visa';
}

/**
 * The test card for a number typed or sent in `payment_method_data[card][number]` (spaces
 * allowed). A number that fails the Luhn check is `incorrect_number`; a valid number that is not
 * a test card is declined as a live card used in test mode, as Stripe does.
 */
export function cardForNumber(number: string): TestCard {
  const digits = number.replace(/[\s-]/g, '');
  const known = BY_NUMBER.get(digits);
  if (known) return known;
  const outcome = luhnValid(digits)
    ? decline(DECLINES.liveCard)
    : decline(DECLINES.incorrectNumber);
  return { number: digits, brand: brandOf(digits), funding: 'credit', paymentMethods: [], outcome };
}

/** The test card behind a `pm_card_…` PaymentMethod id, or undefined. */
export function cardForTestPaymentMethod(id: string): TestCard | undefined {
  return BY_PAYMENT_METHOD.get(id);
}
