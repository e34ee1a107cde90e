import { createDeskStore, type DeskStore } from '../../index.ts';
import type { OrderActionGateway } from '../../mutations/transport.ts';
import type { SyncOptions } from '../engine.ts';
import {
  alwaysOnline,
  ManualClock,
  ManualScheduler,
  ManualTimers,
  ModelServer,
} from './model-server.ts';
import { Prng } from './prng.ts';

/** Lets every pending promise callback run. */
export async function settle(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** A desk store wired to a {@link ModelServer} with manual time, timers and frames. */
export interface Harness {
  clock: ManualClock;
  timers: ManualTimers;
  scheduler: ManualScheduler;
  server: ModelServer;
  store: DeskStore;
  rng: Prng;
  /** Advances the clock, runs due timers and makes due writes visible. */
  advance(ms: number): Promise<void>;
  /** Answers reads, delivers events and runs frames until nothing is left to do. */
  drain(): Promise<void>;
}

/** Options of {@link createHarness}. */
export interface HarnessOptions {
  seed?: number;
  start?: number;
  visibilityLagMs?: number;
  gateway?: (server: ModelServer, clock: ManualClock) => OrderActionGateway;
  sync?: Partial<SyncOptions>;
}

/** Creates a harness; the sync engine is not started. */
export function createHarness(options: HarnessOptions = {}): Harness {
  const clock = new ManualClock(options.start ?? Date.UTC(2026, 2, 10, 12));
  const rng = new Prng(options.seed ?? 1);
  const timers = new ManualTimers(clock);
  const scheduler = new ManualScheduler();
  const server = new ModelServer({ clock, rng, visibilityLagMs: options.visibilityLagMs ?? 0 });
  const store = createDeskStore({
    now: clock.read,
    sync: {
      realtime: server,
      snapshot: server,
      scheduler,
      timers,
      network: alwaysOnline,
      ...options.sync,
    },
    ...(options.gateway ? { gateway: options.gateway(server, clock) } : {}),
  });
  const harness: Harness = {
    clock,
    timers,
    scheduler,
    server,
    store,
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
  };
  return harness;
}
