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

/**
 * When a published event reaches the listeners: `deliver` at once, or later (the backend passes
 * it to the store's `afterCommit`, so an event goes out only once its write is durable).
 */
export type EventGate = (deliver: () => void) => void;

/** In-process publish/subscribe of {@link BackendEvent}s (realtime, function triggers). */
export class EventBus {
  private readonly listeners = new Set<EventListener>();
  private readonly gate: EventGate;

  constructor(gate: EventGate = (deliver) => deliver()) {
    this.gate = gate;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: Omit<BackendEvent, 'timestamp'> & { timestamp?: string }): void {
    const full: BackendEvent = { ...event, timestamp: event.timestamp ?? now() };
    this.gate(() => {
      for (const listener of this.listeners) {
        try {
          listener(full);
        } catch (error) {
          console.error('event listener failed', error);
        }
      }
    });
  }
}

/** An event name with the positions of its ids: literal text at even indexes, a param index at odd ones. */
type EventTemplate = (string | number)[];

interface CompiledPattern {
  /** Param names of the pattern's levels, in order. */
  keys: string[];
  templates: EventTemplate[];
}

const PLACEHOLDER = '\u0000';
const compiledPatterns = new Map<string, CompiledPattern>();

/** The expansion of `pattern` once, with placeholders for its ids (ids never contain NUL). */
function compilePattern(pattern: string): CompiledPattern {
  let compiled = compiledPatterns.get(pattern);
  if (compiled) return compiled;
  const parts = pattern.split('.');
  let end = 0;
  while (end + 1 < parts.length && /^\[.+\]$/.test(parts[end + 1]!)) end += 2;
  const action = end < parts.length ? parts.slice(end).join('.') : null;
  const keys: string[] = [];
  const levels: { type: string; id: string }[] = [];
  for (let i = 0; i < end; i += 2) {
    keys.push(parts[i + 1]!.replace(/^\[|\]$/g, ''));
    levels.push({ type: parts[i]!, id: `${PLACEHOLDER}${levels.length}${PLACEHOLDER}` });
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
  const templates = [...out].map((name) =>
    name.split(PLACEHOLDER).map((part, i) => (i % 2 === 1 ? Number(part) : part)),
  );
  compiled = { keys, templates };
  compiledPatterns.set(pattern, compiled);
  return compiled;
}

function fill(templates: readonly EventTemplate[], ids: readonly string[]): string[] {
  const names: string[] = [];
  for (const template of templates) {
    let name = '';
    for (let i = 0; i < template.length; i++)
      name += i % 2 === 1 ? ids[template[i] as number]! : (template[i] as string);
    names.push(name);
  }
  return names;
}

/**
 * Appwrite's `Event::generateEvents`: for a pattern of `[name].value` segments such as
 * `databases.[databaseId].collections.[collectionId].documents.[documentId].create`, every
 * combination of concrete ids and `*` at each level, with and without the action, plus
 * each parent prefix. `params` maps `databaseId` etc. to values. (The expansion of each pattern
 * is computed once; a call fills in the ids.)
 */
export function generateEvents(pattern: string, params: Record<string, string>): string[] {
  const { keys, templates } = compilePattern(pattern);
  const ids = keys.map((key) => {
    const id = params[key];
    if (id === undefined) throw new Error(`generateEvents: missing param ${key} for ${pattern}`);
    return id;
  });
  return fill(templates, ids);
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

const documentEventTemplates = new Map<string, EventTemplate[]>();

/** Event names of a document event, for both the collections and the tables API families. */
export function documentEvents(
  databaseId: string,
  collectionId: string,
  documentId: string,
  action: string,
): string[] {
  let templates = documentEventTemplates.get(action);
  if (!templates) {
    // Both patterns name their levels databaseId, collectionId, documentId (ids 0, 1, 2).
    const all = [
      ...compilePattern(
        `databases.[databaseId].collections.[collectionId].documents.[documentId].${action}`,
      ).templates,
      ...compilePattern(`databases.[databaseId].tables.[collectionId].rows.[documentId].${action}`)
        .templates,
    ];
    const seen = new Set<string>();
    templates = all.filter((template) => {
      const key = template.join(PLACEHOLDER);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    documentEventTemplates.set(action, templates);
  }
  return fill(templates, [databaseId, collectionId, documentId]);
}
