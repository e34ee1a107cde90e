import { ENTITY_SCHEMAS } from '../../../domain/entities.ts';
import type { SyncedCollection } from '../../records/changes.ts';
import { channelOf } from '../documents.ts';
import { fieldsOfType } from '../../../domain/schema.ts';
import type { DocumentMeta } from '../../../domain/order.ts';
import type {
  DocumentPage,
  FrameScheduler,
  NetworkPort,
  RealtimeEvent,
  RealtimeHandlers,
  RealtimePort,
  RealtimeSubscription,
  SnapshotPort,
  Timers,
} from '../ports.ts';
import type { Prng } from './prng.ts';

/**
 * An in-memory model of the backend *protocol* the sync engine depends on, for pure-logic and
 * property tests (no network, no mocks of the engine's own code):
 * - documents with Appwrite's system fields; a write is stamped `$updatedAt` when it starts and
 *   becomes visible (to reads and as a realtime event) up to `visibilityLagMs` later, as a
 *   database commit can;
 * - `list` (documents, and the `members` and `presence` sets) with the query subset the engine uses (filters, `or`/`and`, orders with the
 *   `$sequence` tie-break, `cursorAfter` resolved from the cursor document's *current* values,
 *   `limit`, `offset`, `select` (system fields always), `total` capped at 5,000), answered when the test
 *   decides;
 * - realtime subscriptions (channels, `equal` queries) on one connection that is active or
 *   not; events of visible writes go in flight while it is active and are delivered reordered
 *   or duplicated as the test decides, and lost when it drops (Appwrite has no replay).
 */

/** A stored document. */
export type ModelDocument = DocumentMeta & Record<string, unknown>;

/** A test clock (epoch ms). */
export class ManualClock {
  now: number;
  constructor(start: number) {
    this.now = start;
  }
  read = (): number => this.now;
}

/** Timers driven by a {@link ManualClock}. */
export class ManualTimers implements Timers {
  readonly #clock: ManualClock;
  #next = 1;
  readonly #due = new Map<number, { at: number; callback: () => void }>();

  constructor(clock: ManualClock) {
    this.#clock = clock;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.#next++;
    this.#due.set(handle, { at: this.#clock.now + Math.max(0, ms), callback });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.#due.delete(handle as number);
  }

  /** Runs every timer due at the clock's current time, earliest first. */
  runDue(): number {
    let ran = 0;
    for (;;) {
      let first: [number, { at: number; callback: () => void }] | null = null;
      for (const entry of this.#due)
        if (entry[1].at <= this.#clock.now && (first === null || entry[1].at < first[1].at))
          first = entry;
      if (first === null) return ran;
      this.#due.delete(first[0]);
      first[1].callback();
      ran++;
    }
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.#due.size;
  }
}

/** A frame scheduler whose frames run when the test says. */
export class ManualScheduler implements FrameScheduler {
  #callbacks = new Map<number, () => void>();
  #next = 1;

  schedule(callback: () => void): () => void {
    const handle = this.#next++;
    this.#callbacks.set(handle, callback);
    return () => this.#callbacks.delete(handle);
  }

  /** Runs the scheduled callbacks (one frame). */
  runFrame(): number {
    const callbacks = [...this.#callbacks.values()];
    this.#callbacks.clear();
    for (const callback of callbacks) callback();
    return callbacks.length;
  }

  get pending(): number {
    return this.#callbacks.size;
  }
}

/** Always online. */
export const alwaysOnline: NetworkPort = { online: () => true, subscribe: () => () => {} };

interface Query {
  method: string;
  attribute?: string;
  values?: unknown[];
}

/** Attributes compared as times: the system timestamps and every datetime field of the schema. */
const DATETIME = new Set([
  '$createdAt',
  '$updatedAt',
  ...ENTITY_SCHEMAS.flatMap((schema) => fieldsOfType(schema, 'datetime')),
]);

function valueOf(doc: ModelDocument, attribute: string): unknown {
  const value = doc[attribute];
  if (attribute === '$sequence') return Number(value);
  if (DATETIME.has(attribute) && typeof value === 'string') return Date.parse(value);
  return value;
}

function operand(attribute: string, value: unknown): unknown {
  if (attribute === '$sequence') return Number(value);
  if (DATETIME.has(attribute) && typeof value === 'string') return Date.parse(value);
  return value;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return (a as number) < (b as number) ? -1 : 1;
}

function matches(doc: ModelDocument, query: Query): boolean {
  const attribute = query.attribute ?? '';
  const values = query.values ?? [];
  switch (query.method) {
    case 'or':
      return (values as Query[]).some((q) => matches(doc, q));
    case 'and':
      return (values as Query[]).every((q) => matches(doc, q));
    case 'equal':
      return values.some((v) => compare(valueOf(doc, attribute), operand(attribute, v)) === 0);
    case 'notEqual':
      return values.every((v) => compare(valueOf(doc, attribute), operand(attribute, v)) !== 0);
    case 'greaterThan':
      return compare(valueOf(doc, attribute), operand(attribute, values[0])) > 0;
    case 'greaterThanEqual':
      return compare(valueOf(doc, attribute), operand(attribute, values[0])) >= 0;
    case 'lessThan':
      return compare(valueOf(doc, attribute), operand(attribute, values[0])) < 0;
    case 'lessThanEqual':
      return compare(valueOf(doc, attribute), operand(attribute, values[0])) <= 0;
    default:
      throw new Error(`model server: unsupported query ${query.method}`);
  }
}

/** A pending `list` call. */
interface PendingRead {
  collectionId: string;
  queries: readonly string[];
  resolve(page: DocumentPage): void;
  reject(error: Error): void;
}

/** A write stamped but not yet visible. */
interface PendingWrite {
  collection: string;
  kind: 'create' | 'update' | 'delete';
  doc: ModelDocument;
  visibleAt: number;
}

/** Options of the model server. */
export interface ModelServerOptions {
  clock: ManualClock;
  rng: Prng;
  /** A write becomes visible up to this long after its `$updatedAt` (default 0). */
  visibilityLagMs?: number;
  /** Answer reads on the next microtask instead of waiting for {@link ModelServer.answer}. */
  autoAnswer?: boolean;
}

interface Subscriber {
  channels: Set<string>;
  queries: Query[];
  onEvent: (event: RealtimeEvent) => void;
  handlers: RealtimeHandlers;
}

/** The model backend; implements both ports of the sync engine. */
export class ModelServer implements RealtimePort, SnapshotPort {
  readonly #clock: ManualClock;
  readonly #rng: Prng;
  readonly #lag: number;
  readonly #collections = new Map<string, Map<string, ModelDocument>>();
  readonly #pendingWrites: PendingWrite[] = [];
  #sequence = 0;
  readonly #subscribers = new Set<Subscriber>();
  /** The subscriptions each event in flight was sent for (the server decides when it sends). */
  readonly #targets = new WeakMap<RealtimeEvent, readonly Subscriber[]>();
  #active = false;
  #attempts = 0;
  #lastDelay = 1000;
  /** Events sent by the server and not yet received. */
  readonly inFlight: RealtimeEvent[] = [];
  /** Events already received once (to deliver again, late). */
  readonly delivered: RealtimeEvent[] = [];
  readonly reads: PendingRead[] = [];
  autoAnswer: boolean;
  /** Number of `list` calls so far. */
  readCount = 0;
  /** Events sent at most this far apart can arrive in either order (a real socket: a few ms). */
  reorderMs = 1_000;

  constructor(options: ModelServerOptions) {
    this.#clock = options.clock;
    this.#rng = options.rng;
    this.#lag = options.visibilityLagMs ?? 0;
    this.autoAnswer = options.autoAnswer ?? false;
  }

  // State -------------------------------------------------------------------------------------

  #docs(collection: string): Map<string, ModelDocument> {
    let docs = this.#collections.get(collection);
    if (!docs) {
      docs = new Map();
      this.#collections.set(collection, docs);
    }
    return docs;
  }

  /** The visible documents of a collection. */
  documents(collection: string): ModelDocument[] {
    return [...this.#docs(collection).values()];
  }

  /** The visible document with this id. */
  get(collection: string, id: string): ModelDocument | undefined {
    return this.#docs(collection).get(id);
  }

  /** Whether a write to this document is stamped but not yet visible. */
  hasPendingWrite(collection: string, id: string): boolean {
    return this.#pendingWrites.some((w) => w.collection === collection && w.doc.$id === id);
  }

  /** Writes not yet visible. */
  get pendingWrites(): number {
    return this.#pendingWrites.length;
  }

  /** Deletes not yet visible. */
  get pendingDeletes(): number {
    return this.#pendingWrites.filter((w) => w.kind === 'delete').length;
  }

  /** Stores documents at once, without events (the state before the client starts). */
  seed(collection: string, docs: readonly DocumentMeta[]): void {
    const store = this.#docs(collection);
    for (const doc of docs)
      store.set(doc.$id, { ...(doc as ModelDocument), $sequence: String(++this.#sequence) });
  }

  /**
   * Stamps a write now (`$updatedAt` = clock, `$createdAt` too for a create); it becomes
   * visible after a random lag (see {@link commitDue}). `data` must not carry system fields.
   */
  write(
    collection: string,
    kind: 'create' | 'update' | 'delete',
    id: string,
    data: Record<string, unknown> = {},
  ): ModelDocument {
    const current = this.#docs(collection).get(id);
    const now = this.#clock.now;
    const doc: ModelDocument =
      kind === 'create'
        ? {
            ...data,
            $id: id,
            $createdAt: new Date(now).toISOString(),
            $updatedAt: new Date(now).toISOString(),
            $sequence: String(++this.#sequence),
          }
        : kind === 'update'
          ? { ...current!, ...data, $updatedAt: new Date(now).toISOString() }
          : { ...current! };
    this.#pendingWrites.push({
      collection,
      kind,
      doc,
      visibleAt: now + (this.#lag ? this.#rng.int(0, this.#lag) : 0),
    });
    return doc;
  }

  /** Makes due writes visible (in commit order), emitting their events. */
  commitDue(all = false): number {
    let count = 0;
    for (;;) {
      let at = -1;
      for (let i = 0; i < this.#pendingWrites.length; i++) {
        const w = this.#pendingWrites[i]!;
        if (
          (all || w.visibleAt <= this.#clock.now) &&
          (at === -1 || w.visibleAt < this.#pendingWrites[at]!.visibleAt)
        )
          at = i;
      }
      if (at === -1) return count;
      const [write] = this.#pendingWrites.splice(at, 1);
      const { collection, kind, doc } = write!;
      if (kind === 'delete') this.#docs(collection).delete(doc.$id);
      else this.#docs(collection).set(doc.$id, doc);
      this.#emit(collection, kind, doc);
      count++;
    }
  }

  #emit(collection: string, kind: string, doc: ModelDocument): void {
    const channel = channelOf(collection as SyncedCollection);
    if (!this.#active) return;
    const targets = [...this.#subscribers].filter(
      (s) => s.channels.has(channel) && s.queries.every((q) => matches(doc, q)),
    );
    if (targets.length === 0) return;
    const event: RealtimeEvent = {
      events: [
        `${channel}.${doc.$id}.${kind}`,
        `${channel}.${doc.$id}`,
        `${channel}.*.${kind}`,
        channel,
      ],
      channels: [channel, `${channel}.${doc.$id}`],
      timestamp: new Date(this.#clock.now).toISOString(),
      payload: structuredClone(doc),
    };
    this.#targets.set(event, targets);
    this.inFlight.push(event);
  }

  /** Hands `event` to the subscriptions it was sent for that are still open. */
  #receive(event: RealtimeEvent): void {
    for (const subscriber of this.#targets.get(event) ?? [])
      if (this.#subscribers.has(subscriber)) subscriber.onEvent(structuredClone(event));
  }

  // Realtime ----------------------------------------------------------------------------------

  /** Realtime queries: the `equal` filters of list queries (what the engine sends). */
  #realtimeQueries(queries: readonly string[]): Query[] {
    return queries.map((text) => {
      const query = JSON.parse(text) as Query;
      if (query.method !== 'equal') throw new Error(`model: realtime query ${query.method}`);
      return query;
    });
  }

  subscribe(
    channels: readonly string[],
    onEvent: (event: RealtimeEvent) => void,
    handlers: RealtimeHandlers,
    queries: readonly string[] = [],
  ): Promise<RealtimeSubscription> {
    const subscriber: Subscriber = {
      channels: new Set(channels),
      queries: this.#realtimeQueries(queries),
      onEvent,
      handlers,
    };
    this.#subscribers.add(subscriber);
    return Promise.resolve({
      update: (next) => {
        subscriber.queries = this.#realtimeQueries(next);
        return Promise.resolve();
      },
      close: () => {
        if (!this.#subscribers.delete(subscriber)) return;
        if (this.#subscribers.size === 0) this.#active = false;
      },
    });
  }

  nextRetryDelayMs(): number {
    return this.#lastDelay;
  }

  /** Whether the subscription is active. */
  get active(): boolean {
    return this.#active;
  }

  /** Whether a client has subscribed. */
  get subscribed(): boolean {
    return this.#subscribers.size > 0;
  }

  /** Subscriptions open now. */
  get subscriptions(): number {
    return this.#subscribers.size;
  }

  /** The connection becomes active (every subscription's `onOpen`). */
  connect(): void {
    if (this.#subscribers.size === 0 || this.#active) return;
    this.#active = true;
    this.#attempts = 0;
    for (const subscriber of [...this.#subscribers]) subscriber.handlers.onOpen();
  }

  /** The connection drops: events in flight are lost (every subscription's `onClose`). */
  disconnect(): void {
    if (this.#subscribers.size === 0 || !this.#active) return;
    this.#active = false;
    this.inFlight.length = 0;
    const attempts = this.#attempts++;
    this.#lastDelay = attempts < 5 ? 1000 : attempts < 15 ? 5000 : attempts < 100 ? 10000 : 60000;
    for (const subscriber of [...this.#subscribers]) subscriber.handlers.onClose();
  }

  /**
   * Delivers up to `count` events in flight, each picked among the first `window` sent within
   * {@link reorderMs} of the oldest (reordering);
   * with probability `duplicate` an event stays in flight to arrive again.
   */
  deliver(count = Infinity, options: { window?: number; duplicate?: number } = {}): number {
    const window = options.window ?? 1;
    let delivered = 0;
    while (delivered < count && this.inFlight.length && this.#active) {
      // Only events sent within `reorderMs` of the oldest in flight can overtake it.
      const oldest = Date.parse(String(this.inFlight[0]!.timestamp));
      let span = 1;
      while (
        span < Math.min(window, this.inFlight.length) &&
        Date.parse(String(this.inFlight[span]!.timestamp)) - oldest <= this.reorderMs
      )
        span++;
      const at = this.#rng.int(0, span - 1);
      const event = this.inFlight[at]!;
      if (!(options.duplicate && this.#rng.chance(options.duplicate))) this.inFlight.splice(at, 1);
      this.delivered.push(event);
      this.#receive(event);
      delivered++;
    }
    return delivered;
  }

  /** Delivers an event that was already delivered before (a late duplicate). */
  deliverStale(): boolean {
    if (!this.#active || this.delivered.length === 0) return false;
    this.#receive(this.#rng.pick(this.delivered));
    return true;
  }

  // Reads -------------------------------------------------------------------------------------

  list(collectionId: SyncedCollection, queries: readonly string[]): Promise<DocumentPage> {
    this.readCount++;
    return new Promise<DocumentPage>((resolve, reject) => {
      const read = { collectionId, queries, resolve, reject };
      if (this.autoAnswer) queueMicrotask(() => this.#answer(read));
      else this.reads.push(read);
    });
  }

  /** Answers the pending read at `index` from the current visible state. */
  answer(index = 0): boolean {
    const [read] = this.reads.splice(index, 1);
    if (!read) return false;
    this.#answer(read);
    return true;
  }

  /** Fails the pending read at `index` (a network error). */
  fail(index = 0): boolean {
    const [read] = this.reads.splice(index, 1);
    if (!read) return false;
    read.reject(new TypeError('fetch failed'));
    return true;
  }

  #answer(read: PendingRead): void {
    try {
      read.resolve(this.query(read.collectionId, read.queries));
    } catch (error) {
      read.reject(error as Error);
    }
  }

  /** Evaluates a list query against the visible state (Appwrite semantics, subset). */
  query(collectionId: string, queryStrings: readonly string[]): DocumentPage {
    const queries = queryStrings.map((q) => JSON.parse(q) as Query);
    const filters: Query[] = [];
    const orders: { attribute: string; sign: number }[] = [];
    let limit = 25;
    let offset = 0;
    let cursor: string | null = null;
    let selected: Set<string> | null = null;
    for (const q of queries) {
      if (q.method === 'select')
        selected = new Set([...(selected ?? []), ...(q.values as string[])]);
      else if (q.method === 'limit') limit = Number(q.values![0]);
      else if (q.method === 'offset') offset = Number(q.values![0]);
      else if (q.method === 'cursorAfter') cursor = String(q.values![0]);
      else if (q.method === 'orderAsc') orders.push({ attribute: q.attribute!, sign: 1 });
      else if (q.method === 'orderDesc') orders.push({ attribute: q.attribute!, sign: -1 });
      else filters.push(q);
    }
    if (!orders.some((o) => o.attribute === '$id' || o.attribute === '$sequence'))
      orders.push({ attribute: '$sequence', sign: 1 });
    const docs = this.#docs(collectionId);
    let rows = [...docs.values()].filter((doc) => filters.every((f) => matches(doc, f)));
    const order = (a: ModelDocument, b: ModelDocument) => {
      for (const { attribute, sign } of orders) {
        const c = compare(valueOf(a, attribute), valueOf(b, attribute));
        if (c !== 0) return sign * c;
      }
      return 0;
    };
    rows.sort(order);
    const total = Math.min(rows.length, 5000);
    if (cursor !== null) {
      const at = docs.get(cursor);
      if (!at)
        throw Object.assign(new Error(`Document '${cursor}' for the 'cursor' value not found.`), {
          code: 400,
          type: 'general_cursor_not_found',
          response: '',
        });
      rows = rows.filter((doc) => order(doc, at) > 0);
    }
    const project = (doc: ModelDocument): ModelDocument => {
      if (selected === null || selected.has('*')) return structuredClone(doc);
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(doc))
        if (key.startsWith('$') || selected.has(key)) out[key] = structuredClone(value);
      return out as ModelDocument;
    };
    return { documents: rows.slice(offset, offset + limit).map(project), total };
  }
}
