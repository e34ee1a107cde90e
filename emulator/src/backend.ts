import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BackendConfig } from './config.ts';
import { Auth } from './core/auth/auth.ts';
import { Clock } from './core/clock.ts';
import { Store } from './core/db.ts';
import { EventBus } from './core/events.ts';
import { eventOf, type Change } from './events.ts';
import { Router, type Route } from './http/router.ts';
import { createRequestHandler } from './http/server.ts';
import { clockSwitch } from './http/switches.ts';
import type { Services } from './modules.ts';

/** Answers a request outside `/v1` (function domains, test switches); returns false to pass. */
export type HttpFallback = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => boolean | Promise<boolean>;

/** Undoes what a module attached, when the backend closes. */
export type Cleanup = () => void | Promise<void>;

/**
 * A service of the backend, as its `index.ts` registers it: its store (the one object other
 * services and the handlers reach it by, `backend.services[name]`), its routes under `/v1`, and
 * what it attaches to the running server.
 */
export interface BackendModule<Name extends keyof Services = keyof Services> {
  /** The service's key in {@link Services}. */
  readonly name: Name;
  /** Creates the service's store when the backend opens (its tables are created then). */
  readonly store: (backend: Backend) => Services[Name];
  /** Its routes; handlers reach the store as `ctx.backend.services[name]`. */
  readonly routes: readonly Route[];
  /** Called once every store exists; may return a cleanup run on close. */
  readonly attach?: (backend: Backend, store: Services[Name]) => Cleanup | void;
}

/** One module per service, by name; the key order is the order of registration. */
export type BackendModules = { readonly [Name in keyof Services]: BackendModule<Name> };

/** The running local backend: storage, accounts, events, services, routes and the HTTP server. */
export class Backend {
  readonly config: BackendConfig;
  /** The SQLite database every store writes to. */
  readonly store: Store;
  readonly auth: Auth;
  /** Time for expiries and rate-limit windows (moved forward by a test switch). */
  readonly clock = new Clock();
  /** Events reach listeners once the writes before them are committed. */
  readonly bus: EventBus;
  readonly router = new Router();
  readonly httpFallbacks: HttpFallback[] = [];
  readonly server: Server;
  /** Every service's store, by name. */
  readonly services: Services;
  private readonly cleanups: Cleanup[] = [];

  private constructor(config: BackendConfig, modules: BackendModules) {
    this.config = config;
    this.store = new Store(config.dataDir);
    this.store.groupCommits();
    this.bus = new EventBus((deliver) =>
      this.store.afterCommit((error) => {
        if (error === null) deliver();
      }),
    );
    this.auth = new Auth(this.store, config.projectId, config.apiKey);
    this.server = createServer({ keepAliveTimeout: 65_000 }, createRequestHandler(this));
    this.httpFallbacks.push(clockSwitch(this));
    // Filled in below: stores may read each other only after construction.
    const services: Partial<Record<keyof Services, unknown>> = {};
    this.services = services as Services;
    for (const module of Object.values(modules) as BackendModule[]) {
      services[module.name] = module.store(this);
      this.router.add(module.routes);
    }
  }

  /** Opens the data folder, creates every service and listens on the configured host and port. */
  static async start(config: BackendConfig, modules: BackendModules): Promise<Backend> {
    const backend = new Backend(config, modules);
    for (const module of Object.values(modules) as BackendModule[]) {
      const cleanup = module.attach?.(backend, backend.services[module.name]);
      if (cleanup) backend.cleanups.push(cleanup);
    }
    await new Promise<void>((resolve, reject) => {
      backend.server.once('error', reject);
      backend.server.listen(config.port, config.host, () => resolve());
    });
    return backend;
  }

  /** Publishes a change a store made as Appwrite's event (see `events.ts`). */
  publish(change: Change): void {
    this.bus.publish(eventOf(change));
  }

  /** The port actually listened on (useful with port 0). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://host:port/v1`. */
  get endpoint(): string {
    return `http://${this.config.host}:${this.port}/v1`;
  }

  /** Stops listening, runs module cleanups and closes the database. */
  async close(): Promise<void> {
    this.store.commitGroup();
    for (const cleanup of this.cleanups.reverse()) await cleanup();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.store.close();
  }
}
