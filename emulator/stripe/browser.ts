/** What the served Stripe.js double needs to know: where the API double is, and its key. */
export interface StripeJsConfig {
  /** Origin (and mount prefix) of the API double, e.g. `http://127.0.0.1:8787/stripe`. */
  apiBase: string;
  publishableKey: string;
}

/**
 * The Stripe.js double's source: a classic script that defines `window.Stripe`. It is this
 * module's {@link installStripeDouble} (self-contained: it refers to nothing outside itself),
 * called with `config`.
 */
export function stripeJsDouble(config: StripeJsConfig): string {
  return `/* Livedesk: local Stripe.js double (not Stripe.js) */\n(${installStripeDouble.toString()})(window, ${JSON.stringify(config)});\n`;
}

/**
 * Defines `window.Stripe` as Stripe.js (`endive`) would, for the Payment Element path:
 * `Stripe(pk)`, `elements({clientSecret, appearance})`, `create('payment')` with an accessible
 * card form, `elements.submit()`, `confirmPayment({elements, redirect: 'if_required'})` with a
 * 3-D Secure challenge window, and `retrievePaymentIntent`. It talks to the API double with the
 * publishable key and the client secret, as Stripe.js talks to Stripe. Runs in the browser only.
 */
export function installStripeDouble(win: Window, config: StripeJsConfig): void {
  type Json = Record<string, unknown>;
  type Listener = (event: Json) => void;
  interface ValidationError {
    type: 'validation_error';
    code: string;
    message: string;
    param?: string;
  }
  interface CardInput {
    number: string;
    expMonth: number;
    expYear: number;
    cvc: string;
  }

  const doc = win.document;

  class IntegrationError extends Error {
    constructor(message: string) {
      super(message);
      this.name = 'IntegrationError';
    }
  }

  function encode(value: unknown, prefix: string, out: URLSearchParams): void {
    if (value === undefined || value === null) return;
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value as Json))
        encode(item, prefix ? `${prefix}[${key}]` : key, out);
      return;
    }
    out.append(prefix, String(value));
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    params: Json,
  ): Promise<{ status: number; body: Json }> {
    const form = new URLSearchParams();
    encode(params, '', form);
    const url = `${config.apiBase}${path}`;
    try {
      const response = await win.fetch(method === 'GET' ? `${url}?${form}` : url, {
        method,
        headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
        body: method === 'POST' ? form.toString() : undefined,
      });
      return { status: response.status, body: (await response.json()) as Json };
    } catch {
      return {
        status: 0,
        body: {
          error: {
            type: 'api_connection_error',
            message:
              'An error occurred with our connection to Stripe. Request was retried 0 times.',
          },
        },
      };
    }
  }

  function intentId(clientSecret: string): string {
    const index = clientSecret.indexOf('_secret_');
    if (!clientSecret.startsWith('pi_') || index < 0)
      throw new IntegrationError(
        `Invalid value for clientSecret: value should be a client secret of the form \${id}_secret_\${secret}. You specified: ${clientSecret}.`,
      );
    return clientSecret.slice(0, index);
  }

  function luhn(digits: string): boolean {
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

  function formatAmount(amount: number, currency: string): string {
    try {
      return new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency: currency.toUpperCase(),
      }).format(amount / 100);
    } catch {
      return `${(amount / 100).toFixed(2)} ${currency}`;
    }
  }

  const STYLE = `
    .sd-payment{display:grid;gap:10px;font:inherit}
    .sd-payment label{display:grid;gap:4px;font-size:.9em}
    .sd-payment input{font:inherit;padding:8px 10px;border:1px solid #c7ccd1;border-radius:var(--sd-radius,6px)}
    .sd-payment input[aria-invalid=true]{border-color:#df1b41}
    .sd-payment .sd-row{display:grid;grid-template-columns:1fr 1fr;gap:10px}
    .sd-payment .sd-error{color:#df1b41;margin:0;min-height:1.2em;font-size:.9em}
    .sd-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.45);display:grid;place-items:center;z-index:2147483647}
    .sd-dialog{background:#fff;color:#1a1f36;border-radius:8px;padding:24px;max-width:380px;font:15px system-ui,sans-serif;display:grid;gap:12px}
    .sd-dialog button{font:inherit;padding:8px 12px;border-radius:6px;border:1px solid #c7ccd1;cursor:pointer}
    .sd-dialog .sd-approve{background:#635bff;color:#fff;border-color:#635bff}`;

  function ensureStyle(): void {
    if (doc.getElementById('stripe-double-style')) return;
    const style = doc.createElement('style');
    style.id = 'stripe-double-style';
    style.textContent = STYLE;
    doc.head.append(style);
  }

  let uid = 0;

  class PaymentElement {
    private readonly listeners = new Map<string, Set<Listener>>();
    private root: HTMLElement | null = null;
    private number: HTMLInputElement | null = null;
    private expiry: HTMLInputElement | null = null;
    private cvc: HTMLInputElement | null = null;
    private message: HTMLElement | null = null;
    private options: Json;
    private readonly appearance: Json;

    constructor(options: Json, appearance: Json) {
      this.options = options;
      this.appearance = appearance;
    }

    mount(target: string | HTMLElement): void {
      const host = typeof target === 'string' ? doc.querySelector<HTMLElement>(target) : target;
      if (!host)
        throw new IntegrationError(
          `The selector you specified (${String(target)}) applies to no DOM elements that are currently on the page.`,
        );
      if (this.root) throw new IntegrationError('This Element is already mounted.');
      ensureStyle();
      const id = `sd-${++uid}`;
      const root = doc.createElement('div');
      root.className = 'sd-payment';
      root.setAttribute('role', 'group');
      root.setAttribute('aria-label', 'Card payment');
      root.dataset.stripeDouble = 'payment-element';
      const radius = (this.appearance.variables as Json | undefined)?.borderRadius;
      if (typeof radius === 'string') root.style.setProperty('--sd-radius', radius);
      root.innerHTML = `
        <label for="${id}-number">Card number
          <input id="${id}-number" name="cardnumber" autocomplete="cc-number" inputmode="numeric" placeholder="1234 1234 1234 1234" aria-describedby="${id}-error"></label>
        <div class="sd-row">
          <label for="${id}-expiry">Expiration date
            <input id="${id}-expiry" name="exp-date" autocomplete="cc-exp" inputmode="numeric" placeholder="MM / YY" aria-describedby="${id}-error"></label>
          <label for="${id}-cvc">Security code
            <input id="${id}-cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" placeholder="CVC" aria-describedby="${id}-error"></label>
        </div>
        <p id="${id}-error" class="sd-error" role="alert"></p>`;
      this.number = root.querySelector(`#${id}-number`);
      this.expiry = root.querySelector(`#${id}-expiry`);
      this.cvc = root.querySelector(`#${id}-cvc`);
      this.message = root.querySelector(`#${id}-error`);
      this.number!.addEventListener('input', () => {
        const digits = this.number!.value.replace(/\D/g, '').slice(0, 19);
        this.number!.value = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
        this.changed();
      });
      this.expiry!.addEventListener('input', (event) => {
        const deleting = (event as InputEvent).inputType?.startsWith('delete');
        const digits = this.expiry!.value.replace(/\D/g, '').slice(0, 4);
        this.expiry!.value =
          digits.length > 2 || (digits.length === 2 && !deleting)
            ? `${digits.slice(0, 2)} / ${digits.slice(2)}`
            : digits;
        this.changed();
      });
      this.cvc!.addEventListener('input', () => {
        this.cvc!.value = this.cvc!.value.replace(/\D/g, '').slice(0, 4);
        this.changed();
      });
      for (const input of [this.number!, this.expiry!, this.cvc!]) {
        input.addEventListener('focus', () => this.emit('focus', { elementType: 'payment' }));
        input.addEventListener('blur', () => this.emit('blur', { elementType: 'payment' }));
      }
      host.append(root);
      this.root = root;
      win.setTimeout(() => this.emit('ready', { elementType: 'payment' }), 0);
    }

    unmount(): void {
      this.root?.remove();
      this.root = null;
    }

    destroy(): void {
      this.unmount();
      this.listeners.clear();
    }

    update(options: Json): void {
      this.options = { ...this.options, ...options };
    }

    on(event: string, listener: Listener): this {
      const set = this.listeners.get(event) ?? new Set();
      set.add(listener);
      this.listeners.set(event, set);
      return this;
    }

    once(event: string, listener: Listener): this {
      const wrapped: Listener = (payload) => {
        this.off(event, wrapped);
        listener(payload);
      };
      return this.on(event, wrapped);
    }

    off(event: string, listener?: Listener): this {
      if (listener) this.listeners.get(event)?.delete(listener);
      else this.listeners.delete(event);
      return this;
    }

    focus(): void {
      this.number?.focus();
    }

    blur(): void {
      (doc.activeElement as HTMLElement | null)?.blur();
    }

    clear(): void {
      for (const input of [this.number, this.expiry, this.cvc]) if (input) input.value = '';
      this.changed();
    }

    collapse(): this {
      return this;
    }

    get mounted(): boolean {
      return this.root !== null;
    }

    private emit(event: string, payload: Json): void {
      for (const listener of [...(this.listeners.get(event) ?? [])]) listener(payload);
    }

    private changed(): void {
      this.show(null);
      const empty = !this.number?.value && !this.expiry?.value && !this.cvc?.value;
      this.emit('change', {
        elementType: 'payment',
        empty,
        complete: this.validate() === null,
        collapsed: false,
        value: { type: 'card' },
      });
    }

    /** Shows `error` under the form and marks the field it names. */
    show(error: ValidationError | null): void {
      if (this.message) this.message.textContent = error?.message ?? '';
      const fields: Record<string, HTMLInputElement | null> = {
        number: this.number,
        expiry: this.expiry,
        cvc: this.cvc,
      };
      for (const [name, input] of Object.entries(fields))
        input?.setAttribute('aria-invalid', String(error?.param === name));
    }

    /** The first problem with what was typed, as Stripe.js words it, or null. */
    validate(): ValidationError | null {
      const invalid = (code: string, message: string, param: string): ValidationError => ({
        type: 'validation_error',
        code,
        message,
        param,
      });
      const digits = (this.number?.value ?? '').replace(/\D/g, '');
      const amex = /^3[47]/.test(digits);
      if (digits.length < (amex ? 15 : 16))
        return invalid('incomplete_number', 'Your card number is incomplete.', 'number');
      if (!luhn(digits)) return invalid('invalid_number', 'Your card number is invalid.', 'number');
      const expiry = (this.expiry?.value ?? '').replace(/\D/g, '');
      if (expiry.length < 4)
        return invalid('incomplete_expiry', "Your card's expiration date is incomplete.", 'expiry');
      const month = Number(expiry.slice(0, 2));
      const year = 2000 + Number(expiry.slice(2));
      const now = new Date();
      if (month < 1 || month > 12)
        return invalid('invalid_expiry_month', "Your card's expiration date is invalid.", 'expiry');
      if (year < now.getFullYear())
        return invalid(
          'invalid_expiry_year_past',
          "Your card's expiration year is in the past.",
          'expiry',
        );
      if (year === now.getFullYear() && month < now.getMonth() + 1)
        return invalid(
          'invalid_expiry_month_past',
          "Your card's expiration date is in the past.",
          'expiry',
        );
      const cvc = this.cvc?.value ?? '';
      if (cvc.length < (amex ? 4 : 3))
        return invalid('incomplete_cvc', "Your card's security code is incomplete.", 'cvc');
      return null;
    }

    /** The card typed, once {@link validate} passes. */
    card(): CardInput {
      const expiry = (this.expiry?.value ?? '').replace(/\D/g, '');
      return {
        number: (this.number?.value ?? '').replace(/\D/g, ''),
        expMonth: Number(expiry.slice(0, 2)),
        expYear: 2000 + Number(expiry.slice(2)),
        cvc: this.cvc?.value ?? '',
      };
    }
  }

  class Elements {
    readonly clientSecret: string | null;
    private options: Json;
    payment: PaymentElement | null = null;

    constructor(options: Json) {
      this.options = options;
      this.clientSecret = typeof options.clientSecret === 'string' ? options.clientSecret : null;
      if (this.clientSecret) intentId(this.clientSecret);
    }

    create(type: string, options: Json = {}): PaymentElement {
      if (type !== 'payment')
        throw new IntegrationError(
          `The Stripe.js double only implements the Payment Element, not "${type}".`,
        );
      if (this.payment) throw new IntegrationError('Can only create one Element of type payment.');
      this.payment = new PaymentElement(options, (this.options.appearance as Json) ?? {});
      return this.payment;
    }

    getElement(type: string): PaymentElement | null {
      return type === 'payment' ? this.payment : null;
    }

    update(options: Json): void {
      this.options = { ...this.options, ...options };
    }

    async fetchUpdates(): Promise<Json> {
      return {};
    }

    /** Validates the Payment Element; shows and returns the first problem. */
    async submit(): Promise<Json> {
      if (!this.payment?.mounted)
        throw new IntegrationError('elements.submit() needs a mounted Payment Element.');
      const error = this.payment.validate();
      this.payment.show(error);
      return error ? { error } : { selectedPaymentMethod: 'card' };
    }
  }

  /** The 3-D Secure challenge window; resolves with the customer's choice. */
  function challenge(intent: Json): Promise<'approve' | 'fail'> {
    ensureStyle();
    return new Promise((resolve) => {
      const backdrop = doc.createElement('div');
      backdrop.className = 'sd-backdrop';
      backdrop.dataset.stripeDouble = 'three-d-secure';
      const amount = formatAmount(Number(intent.amount), String(intent.currency));
      backdrop.innerHTML = `
        <div class="sd-dialog" role="dialog" aria-modal="true" aria-labelledby="sd-3ds-title">
          <h2 id="sd-3ds-title" style="margin:0;font-size:18px">3D Secure authentication</h2>
          <p style="margin:0">Test authentication of a ${amount} payment. Complete it to pay, or fail it to see a failed authentication.</p>
          <button type="button" class="sd-approve">Complete authentication</button>
          <button type="button" class="sd-fail">Fail authentication</button>
        </div>`;
      const done = (result: 'approve' | 'fail') => {
        backdrop.remove();
        doc.removeEventListener('keydown', onKey);
        resolve(result);
      };
      const onKey = (event: KeyboardEvent) => {
        if (event.key === 'Escape') done('fail');
      };
      backdrop
        .querySelector('.sd-approve')!
        .addEventListener('click', () => done('approve'), { once: true });
      backdrop
        .querySelector('.sd-fail')!
        .addEventListener('click', () => done('fail'), { once: true });
      doc.addEventListener('keydown', onKey);
      doc.body.append(backdrop);
      backdrop.querySelector<HTMLButtonElement>('.sd-approve')!.focus();
    });
  }

  function errorResult(body: Json): Json {
    return { error: body.error };
  }

  function Stripe(key: unknown, _options?: Json) {
    if (typeof key !== 'string' || key === '')
      throw new IntegrationError(
        'Please call Stripe() with your publishable key. You used an empty string.',
      );
    if (key.startsWith('sk_'))
      throw new IntegrationError(
        'You should not use your secret key with Stripe.js. Please pass a publishable key instead.',
      );
    if (key !== config.publishableKey)
      throw new IntegrationError(
        `The Stripe.js double only knows the publishable key ${config.publishableKey}; got ${key}.`,
      );

    async function confirm(elements: Elements, clientSecret: string, confirmParams: Json) {
      const payment = elements.payment;
      if (!payment?.mounted)
        throw new IntegrationError(
          'Invalid value for confirmPayment(): elements should have a mounted Payment Element.',
        );
      const invalid = payment.validate();
      payment.show(invalid);
      if (invalid) return { error: invalid };
      const card = payment.card();
      const id = intentId(clientSecret);
      const methodData = (confirmParams.payment_method_data as Json | undefined) ?? {};
      let response = await call('POST', `/v1/payment_intents/${id}/confirm`, {
        key,
        client_secret: clientSecret,
        payment_method_data: {
          ...methodData,
          type: 'card',
          card: {
            number: card.number,
            exp_month: card.expMonth,
            exp_year: card.expYear,
            cvc: card.cvc,
          },
        },
        return_url: confirmParams.return_url,
        receipt_email: confirmParams.receipt_email,
      });
      if (response.status !== 200) return errorResult(response.body);
      let intent = response.body;
      if (intent.status === 'requires_action') {
        const result = await challenge(intent);
        response = await call('POST', `/_double/payment_intents/${id}/authenticate`, {
          key,
          client_secret: clientSecret,
          result,
        });
        if (response.status !== 200) return errorResult(response.body);
        intent = response.body;
      }
      const failure = intent.last_payment_error as Json | null;
      if (intent.status === 'requires_payment_method' && failure)
        return { error: { ...failure, payment_intent: intent } };
      return { paymentIntent: intent };
    }

    return {
      elements(options: Json = {}) {
        return new Elements(options);
      },
      async confirmPayment(options: Json) {
        const elements = options.elements as Elements | undefined;
        const clientSecret =
          (options.clientSecret as string | undefined) ?? elements?.clientSecret ?? null;
        if (!elements || !clientSecret)
          throw new IntegrationError(
            'Invalid value for confirmPayment(): pass elements created with a clientSecret, or a clientSecret.',
          );
        const confirmParams = (options.confirmParams as Json | undefined) ?? {};
        const redirect = options.redirect ?? 'always';
        if (redirect !== 'if_required' && typeof confirmParams.return_url !== 'string')
          throw new IntegrationError(
            "stripe.confirmPayment(): the `confirmParams.return_url` argument is required unless passing `redirect: 'if_required'`",
          );
        const result = await confirm(elements, clientSecret, confirmParams);
        if (redirect === 'if_required' || !('paymentIntent' in result)) return result;
        const target = new URL(String(confirmParams.return_url), win.location.href);
        target.searchParams.set('payment_intent', intentId(clientSecret));
        target.searchParams.set('payment_intent_client_secret', clientSecret);
        target.searchParams.set('redirect_status', String((result.paymentIntent as Json).status));
        win.location.assign(target.toString());
        return new Promise(() => {});
      },
      async retrievePaymentIntent(clientSecret: string) {
        const id = intentId(clientSecret);
        const response = await call('GET', `/v1/payment_intents/${id}`, {
          key,
          client_secret: clientSecret,
        });
        return response.status === 200
          ? { paymentIntent: response.body }
          : errorResult(response.body);
      },
      async handleNextAction() {
        return unsupported('handleNextAction');
      },
      async createToken() {
        return unsupported('createToken');
      },
      async createPaymentMethod() {
        return unsupported('createPaymentMethod');
      },
      async confirmCardPayment() {
        return unsupported('confirmCardPayment');
      },
      registerAppInfo() {},
      _registerWrapper() {},
    };
  }

  function unsupported(name: string): Json {
    return {
      error: {
        type: 'invalid_request_error',
        message: `The Stripe.js double does not implement ${name}(); use the Payment Element and confirmPayment().`,
      },
    };
  }

  Stripe.version = 'endive';
  (win as unknown as { Stripe: unknown }).Stripe = Stripe;
}
