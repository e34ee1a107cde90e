import type { TargetKind } from '../../scripts/lib/target-status.ts';

export type { TargetKind } from '../../scripts/lib/target-status.ts';

/** What tests need to reach a started backend. */
export interface BackendConnection {
  kind: TargetKind;
  /** `http://127.0.0.1:PORT/v1`. */
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/** A started backend; dispose it with `await using` or `stop()`. */
export interface StartedBackend extends BackendConnection, AsyncDisposable {
  /** Stops and starts it again on the same address and data (a restart, not a reset). */
  restart(): Promise<void>;
  /** Kills it without a chance to clean up (SIGKILL), then starts it again on the same data. */
  crashAndRestart(): Promise<void>;
  stop(): Promise<void>;
  /** One line saying what runs where, e.g. `container 3f2a… of localhost/livedesk-backend:… on podman 4.3.1`. */
  describe(): string;
  /**
   * Calls `listener` once if the backend stops without being asked to (killed, crashed), with a
   * readable reason; returns an unsubscribe. Targets that cannot tell (remote) leave it out and
   * are watched by health checks alone.
   */
  onUnexpectedExit?(listener: (reason: string) => void): () => void;
}

/** Builds and starts a backend of one kind. */
export interface BackendTarget {
  kind: TargetKind;
  /** Why this target cannot run on this machine, or null when it can. */
  unavailableReason(): Promise<string | null>;
  start(): Promise<StartedBackend>;
}
