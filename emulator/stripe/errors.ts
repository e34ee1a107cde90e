/** Stripe's error types (the `type` of an error body). */
export type StripeErrorType =
  'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';

/** The body Stripe answers with when a request fails: `{error: {...}}`. */
export interface StripeErrorBody {
  error: {
    type: StripeErrorType;
    message: string;
    code?: string;
    decline_code?: string;
    param?: string;
    doc_url?: string;
    charge?: string;
    payment_intent?: unknown;
    payment_method?: unknown;
    request_log_url?: string;
  };
}

/**
 * A failed request, answered as Stripe answers it. `remembered` tells whether the idempotency
 * layer saves it (Stripe saves the result once the endpoint has started executing; a request
 * refused while its parameters are validated is not saved and may be retried with the same key).
 */
export class StripeApiError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;
  readonly remembered: boolean;

  constructor(status: number, error: StripeErrorBody['error'], remembered = true) {
    super(error.message);
    this.name = 'StripeApiError';
    this.status = status;
    this.body = { error };
    this.remembered = remembered;
  }
}

/** A parameter problem (400, not remembered by the idempotency layer). */
export function invalidParam(param: string, message: string, code = 'parameter_invalid'): never {
  throw new StripeApiError(400, { type: 'invalid_request_error', code, param, message }, false);
}

/** `Missing required param: x.` */
export function missingParam(param: string): never {
  throw new StripeApiError(
    400,
    {
      type: 'invalid_request_error',
      code: 'parameter_missing',
      param,
      message: `Missing required param: ${param}.`,
      doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
    },
    false,
  );
}

/** `No such payment_intent: 'pi_…'` (404). */
export function noSuch(kind: string, id: string, param = 'id'): never {
  throw new StripeApiError(
    404,
    {
      type: 'invalid_request_error',
      code: 'resource_missing',
      param,
      message: `No such ${kind}: '${id}'`,
      doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    },
    false,
  );
}

/** An object in a state that does not allow the request (400, remembered). */
export function unexpectedState(code: string, message: string, extra: object = {}): never {
  throw new StripeApiError(400, { type: 'invalid_request_error', code, message, ...extra });
}
