import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BackendConfig } from './config.ts';
import { Auth } from './core/auth.ts';
import { Store } from './core/db.ts';
import { EventBus } from './core/events.ts';
import { Router, type Route } from './http/router.ts';
import { createRequestHandler } from './http/server.ts';

/** Answers a request outside `/v1` (function domains, test switches); returns false to pass. */
export type HttpFallback = (
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => boolean | Promise<boolean>;

/** A part of the backend: its routes, and anything it attaches to the running server. */
export interface BackendModule {
  name: string;
  routes?: (backend: Backend) => Route[];
  /** Called once the server exists; may return a cleanup run on close. */
  attach?: (backend: Backend) => void | (() => void | Promise<void>);
}

/** The running local backend: storage, accounts, events, routes and the HTTP server. */
export class Backend {
  readonly config: BackendConfig;
  readonly store: Store;
  readonly auth: Auth;
  /** Events reach listeners once the writes before them are committed. */
  readonly bus: EventBus;
  readonly router = new Router();
  readonly httpFallbacks: HttpFallback[] = [];
  readonly server: Server;
  /** Anything a module wants to share with others, keyed by module name. */
  readonly services = new Map<string, unknown>();
  private readonly cleanups: (() => void | Promise<void>)[] = [];

  private constructor(config: BackendConfig) {
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
  }

  /** Opens the data folder, registers `modules` and listens on the configured host and port. */
  static async start(config: BackendConfig, modules: readonly BackendModule[]): Promise<Backend> {
    const backend = new Backend(config);
    for (const module of modules) if (module.routes) backend.router.add(module.routes(backend));
    for (const module of modules) {
      const cleanup = module.attach?.(backend);
      if (cleanup) backend.cleanups.push(cleanup);
    }
    await new Promise<void>((resolve, reject) => {
      backend.server.once('error', reject);
      backend.server.listen(config.port, config.host, () => resolve());
    });
    return backend;
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
