import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripeJsDouble } from './browser.ts';
import { StripeEngine } from './engine.ts';
import { createApiHandler, type DoubleKeys } from './http.ts';
import { StripeStore } from './store.ts';

/** The keys and webhook secret the doubles use unless told otherwise (test-mode look-alikes). */
export const LOCAL_KEYS = {
  secretKey: 'sk_test_local_livedesk',
  publishableKey: 'pk_test_local_livedesk',
  webhookSecret: 'whsec_local_livedesk',
} as const;

/** The id of the webhook endpoint made from {@link StripeDoubleOptions.webhook}. */
export const CONFIGURED_ENDPOINT_ID = 'we_configured';

/** Settings of {@link StripeDouble.start}. */
export interface StripeDoubleOptions {
  /** Folder of `stripe.sqlite` (the backend's data folder). */
  dataDir: string;
  host?: string;
  /** Port of the API double (0: any free port). */
  port?: number;
  secretKey?: string;
  publishableKey?: string;
  /** A webhook endpoint to keep (id {@link CONFIGURED_ENDPOINT_ID}, every event). */
  webhook?: { url: string; secret: string } | null;
  /** How long the double's processing card stays `processing` (ms; 1000 by default). */
  processingMs?: number;
}

/**
 * The local Stripe doubles: the API double that the `stripe` Node SDK reaches through its
 * `host`/`port`/`protocol` options, webhook delivery, and the Stripe.js double for the browser.
 * State persists in SQLite in `dataDir`, the webhook delivery queue included: deliveries pending
 * when the double stopped (or was killed) are made when it starts again.
 */
export class StripeDouble {
  readonly keys: DoubleKeys;
  readonly engine: StripeEngine;
  private readonly store: StripeStore;
  private readonly server: Server;
  private readonly api: ReturnType<typeof createApiHandler>;
  private readonly host: string;

  private constructor(options: StripeDoubleOptions) {
    this.keys = {
      secretKey: options.secretKey ?? LOCAL_KEYS.secretKey,
      publishableKey: options.publishableKey ?? LOCAL_KEYS.publishableKey,
    };
    this.host = options.host ?? '127.0.0.1';
    this.store = new StripeStore(options.dataDir);
    this.engine = new StripeEngine(this.store, { processingMs: options.processingMs ?? 1000 });
    if (options.webhook)
      this.engine.endpoints.ensure(
        CONFIGURED_ENDPOINT_ID,
        options.webhook.url,
        options.webhook.secret,
      );
    this.api = createApiHandler(this.engine, this.store, this.keys);
    this.server = createServer((req, res) => {
      void this.handle(req, res, '').then((handled) => {
        if (handled) return;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Not found.' } }),
        );
      });
    });
  }

  /** Opens the state in `dataDir` and listens on `host:port`. */
  static async start(options: StripeDoubleOptions): Promise<StripeDouble> {
    const double = new StripeDouble(options);
    await new Promise<void>((resolve, reject) => {
      double.server.once('error', reject);
      double.server.listen(options.port ?? 0, double.host, () => resolve());
    });
    // Deliveries queued before a restart or a crash go out again, each when it is due.
    double.engine.events.resume();
    return double;
  }

  /** The port the API double listens on. */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://host:port`: what the Node SDK's `host`/`port`/`protocol` options name. */
  get url(): string {
    return `http://${this.host}:${this.port}`;
  }

  /**
   * Answers a request whose path starts with `prefix` (`''` on the double's own port, `/stripe`
   * when mounted on the local backend): the API (`/v1/…`), the test controls (`/_double/…`),
   * the Stripe.js double (`/stripe.js`) and a description of the doubles (`/`). Returns false
   * for any other path.
   */
  async handle(req: IncomingMessage, res: ServerResponse, prefix: string): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(`${prefix}/`)) return false;
    const path = url.pathname.slice(prefix.length);
    const origin = `http://${req.headers.host ?? `${this.host}:${this.port}`}${prefix}`;
    if (req.method === 'GET' && path === '/stripe.js') {
      res.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-cache',
        'access-control-allow-origin': '*',
      });
      res.end(stripeJsDouble({ apiBase: origin, publishableKey: this.keys.publishableKey }));
      return true;
    }
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      res.end(
        JSON.stringify({
          api: this.url,
          browserApi: origin,
          script: `${origin}/stripe.js`,
          publishableKey: this.keys.publishableKey,
        }),
      );
      return true;
    }
    return this.api(req, res, path, url.search.slice(1));
  }

  /** Stops listening, pending deliveries and timers, and closes the state. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.engine.close();
    this.store.close();
  }
}
