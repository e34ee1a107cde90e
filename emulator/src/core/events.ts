import { now } from './time.ts';

/**
 * Something that happened, as Appwrite publishes it: the full list of event names
 * (for function triggers and realtime), the realtime channels, the roles allowed to
 * receive it, and the payload (the REST model of the resource).
 */
export interface BackendEvent {
  events: string[];
  channels: string[];
  /** Roles that may receive the event over realtime; `any` means everyone. */
  roles: string[];
  payload: Record<string, unknown>;
  timestamp: string;
  /** Users whose roles changed with this event (realtime re-evaluates their connections). */
  rolesChangedFor?: string[];
}

/** A listener of {@link EventBus}. */
export type EventListener = (event: BackendEvent) => void;

/** In-process publish/subscribe of {@link BackendEvent}s (realtime, function triggers). */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: Omit<BackendEvent, 'timestamp'> & { timestamp?: string }): void {
    const full: BackendEvent = { ...event, timestamp: event.timestamp ?? now() };
    for (const listener of this.listeners) {
      try {
        listener(full);
      } catch (error) {
        console.error('event listener failed', error);
      }
    }
  }
}

/**
 * Appwrite's `Event::generateEvents`: for a pattern of `[name].value` segments such as
 * `databases.[databaseId].collections.[collectionId].documents.[documentId].create`, every
 * combination of concrete ids and `*` at each level, with and without the action, plus
 * each parent prefix. `params` maps `databaseId` etc. to values.
 */
export function generateEvents(pattern: string, params: Record<string, string>): string[] {
  const parts = pattern.split('.');
  let end = 0;
  while (end + 1 < parts.length && /^\[.+\]$/.test(parts[end + 1]!)) end += 2;
  const action = end < parts.length ? parts.slice(end).join('.') : null;
  const levels: { type: string; id: string }[] = [];
  for (let i = 0; i < end; i += 2) {
    const type = parts[i]!;
    const placeholder = parts[i + 1]!;
    const key = placeholder.replace(/^\[|\]$/g, '');
    const id = params[key];
    if (id === undefined) throw new Error(`generateEvents: missing param ${key} for ${pattern}`);
    levels.push({ type, id });
  }
  const out = new Set<string>();
  const combine = (depth: number): string[][] => {
    if (depth === 0) return [[]];
    const shorter = combine(depth - 1);
    const level = levels[depth - 1]!;
    const result: string[][] = [];
    for (const prefix of shorter) {
      result.push([...prefix, level.type, level.id]);
      result.push([...prefix, level.type, '*']);
    }
    return result;
  };
  for (const combination of combine(levels.length)) {
    const base = combination.join('.');
    if (action) out.add(`${base}.${action}`);
    out.add(base);
  }
  for (let depth = levels.length - 1; depth >= 1; depth--) {
    for (const combination of combine(depth)) out.add(combination.join('.'));
  }
  return [...out];
}

/** Realtime channels of a document event (16: the documents, rows and tablesdb families, plain and `.action`). */
export function documentChannels(
  databaseId: string,
  collectionId: string,
  documentId: string,
  action: string,
): string[] {
  const base = [
    'documents',
    `databases.${databaseId}.collections.${collectionId}.documents`,
    `databases.${databaseId}.collections.${collectionId}.documents.${documentId}`,
    'rows',
    `databases.${databaseId}.tables.${collectionId}.rows`,
    `databases.${databaseId}.tables.${collectionId}.rows.${documentId}`,
    `tablesdb.${databaseId}.tables.${collectionId}.rows`,
    `tablesdb.${databaseId}.tables.${collectionId}.rows.${documentId}`,
  ];
  return [...base, ...base.map((channel) => `${channel}.${action}`)];
}

/** Event names of a document event, for both the collections and the tables API families. */
export function documentEvents(
  databaseId: string,
  collectionId: string,
  documentId: string,
  action: string,
): string[] {
  const params = { databaseId, collectionId, documentId };
  return [
    ...generateEvents(
      `databases.[databaseId].collections.[collectionId].documents.[documentId].${action}`,
      params,
    ),
    ...generateEvents(
      `databases.[databaseId].tables.[collectionId].rows.[documentId].${action}`,
      params,
    ),
  ].filter((event, index, all) => all.indexOf(event) === index);
}
