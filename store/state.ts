import type { StateCreator } from 'zustand/vanilla';
import type { FilesActions } from './mutations/files.ts';
import type { MutationsActions, MutationsState } from './mutations/mutations.ts';
import type { RemoteChange } from './records/changes.ts';
import type { RecordsState } from './records/records.ts';
import type { SessionState } from './session.ts';
import type { SnapshotRecords } from './sync/load-plan.ts';
import type { SyncActions, SyncState } from './sync/sync-state.ts';
import type { SnapshotOptions } from './transactions.ts';
import type { ViewsActions, ViewsState } from './views/views.ts';

/** How backend records enter the store: the sync engine's entry points (tests and benchmarks use them too). */
export interface RemoteActions {
  /**
   * Reconciles a batch of backend changes into every table, view and metric in one `set`.
   * `eventsAt`: the batch carries realtime events received by then (for "last event N s ago").
   */
  applyRemote(changes: readonly RemoteChange[], meta?: { eventsAt?: number }): void;
  /**
   * Loads the initial snapshot: built in one pass into an empty store (or, with `replace`, in
   * place of a partial snapshot shown while loading), else reconciled like any change.
   */
  loadSnapshot(records: SnapshotRecords, options?: SnapshotOptions): void;
}

/**
 * The whole store, by part: the records as the backend has them (`records/`), what the views read
 * (`views/`), the connection, load and tracked details (`sync/`), our writes (`mutations/`) and
 * who is signed in. Each part's state is written by that part only; a change that spans parts is
 * one commit (`transactions.ts`).
 */
export type DeskState = RecordsState &
  ViewsState &
  ViewsActions &
  SyncState &
  SyncActions &
  MutationsState &
  MutationsActions &
  FilesActions &
  SessionState &
  RemoteActions;

/** A part's creator (immer middleware on the combined store only). */
export type DeskSlice<T> = StateCreator<DeskState, [['zustand/immer', never]], [], T>;
