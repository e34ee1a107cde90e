import type { Actor } from '../../../domain/order-machine.ts';
import { createDeskStore, type DeskStore } from '../../create-store.ts';
import type { SyncOptions } from '../engine.ts';
import {
  alwaysOnline,
  ManualClock,
  ManualScheduler,
  ManualTimers,
  ModelServer,
} from './model-server.ts';
import { ManualSlices } from '../../views/sliced.ts';
import { ModelTransport } from './model-transport.ts';
import { Prng } from './prng.ts';

/** The harness's signed-in member unless told otherwise. */
export const ANA: Actor = { id: 'u-ana', name: 'Ana', role: 'staff' };

/** Lets every pending promise callback run. */
export async function settle(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A desk store wired to a {@link ModelServer} with manual time, timers and frames. */
export interface Harness {
  clock: ManualClock;
  timers: ManualTimers;
  scheduler: ManualScheduler;
  /** The slices of long view builds, when made with `slices` (else they run at once). */
  slices: ManualSlices | null;
  server: ModelServer;
  store: DeskStore;
  /** The store's writes, carried out on the model server. */
  transport: ModelTransport;
  rng: Prng;
  /** Advances the clock, runs due timers and makes due writes visible. */
  advance(ms: number): Promise<void>;
  /** Answers reads, delivers events and runs frames until nothing is left to do. */
  drain(): Promise<void>;
  /** Starts the sync engine, connects and drains: the store is live. */
  startLive(): Promise<void>;
  /**
   * Connects again after a drop and drains; returns the connection's status just after the
   * connection came back and once everything is done (`['resyncing', 'live']` after a gap).
   */
  reconnect(): Promise<[string, string]>;
}

/** Options of {@link createHarness}. */
export interface HarnessOptions {
  seed?: number;
  start?: number;
  visibilityLagMs?: number;
  /** The signed-in member (default: Ana, staff); null for a store without one. */
  actor?: Actor | null;
  sync?: Partial<SyncOptions>;
  /** Make long view builds in slices, run when the test says (see {@link Harness.slices}). */
  slices?: boolean;
}

/** Creates a harness; the sync engine is not started. */
export function createHarness(options: HarnessOptions = {}): Harness {
  const clock = new ManualClock(options.start ?? Date.UTC(2026, 2, 10, 12));
  const rng = new Prng(options.seed ?? 1);
  const timers = new ManualTimers(clock);
  const scheduler = new ManualScheduler();
  const server = new ModelServer({ clock, rng, visibilityLagMs: options.visibilityLagMs ?? 0 });
  const actor = options.actor === undefined ? ANA : options.actor;
  const transport = new ModelTransport(server, clock, rng, actor ?? ANA);
  const slices = options.slices ? new ManualSlices({ tick: 8 }) : null;
  const store = createDeskStore({
    ...(actor ? { actor } : {}),
    ...(slices ? { slices } : {}),
    transport,
    now: clock.read,
    sync: {
      realtime: server,
      snapshot: server,
      scheduler,
      timers,
      network: alwaysOnline,
      ...options.sync,
    },
  });
  const harness: Harness = {
    slices,
    clock,
    timers,
    scheduler,
    server,
    store,
    transport,
    rng,
    async advance(ms) {
      clock.now += ms;
      server.commitDue();
      timers.runDue();
      await settle();
    },
    async drain() {
      for (let i = 0; i < 10_000; i++) {
        await settle();
        const busy = server.answer() || server.deliver() > 0 || scheduler.runFrame() > 0;
        if (!busy) {
          await settle();
          if (!server.reads.length && !server.inFlight.length && !scheduler.pending) return;
        }
      }
      throw new Error('harness: did not drain');
    },
    async reconnect() {
      server.connect();
      await settle();
      const during = store.getState().connection.status;
      await harness.drain();
      return [during, store.getState().connection.status];
    },
    async startLive() {
      store.getState().startSync();
      await settle();
      server.connect();
      await harness.drain();
    },
  };
  return harness;
}
