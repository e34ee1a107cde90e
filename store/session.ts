import type { Actor } from '../domain/order-machine.ts';

/** Who is using the desk: set once, when the store is created for a signed-in member. */
export interface SessionState {
  /** The signed-in desk member (null: a store without one, e.g. a benchmark's). */
  readonly actor: Actor | null;
}
