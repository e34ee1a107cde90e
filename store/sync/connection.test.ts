import { describe, expect, it } from 'vitest';
import {
  deriveStatus,
  initialConnection,
  lastEventAgeSeconds,
  nextConnection,
  secondsUntilRetry,
  type ConnectionEvent,
  type ConnectionState,
} from './connection.ts';

function run(events: ConnectionEvent[], from = initialConnection(0)): ConnectionState[] {
  const states: ConnectionState[] = [];
  let state = from;
  for (const event of events) {
    state = nextConnection(state, event);
    states.push(state);
  }
  return states;
}

describe('connection state machine', () => {
  it('connecting → live → reconnecting(nextRetryAt) → resyncing → live', () => {
    const states = run([
      { type: 'open', at: 10, resync: false },
      { type: 'synced', at: 20 },
      { type: 'close', at: 30, retryDelayMs: 1000 },
      { type: 'open', at: 1030, resync: true },
      { type: 'synced', at: 1100 },
    ]);
    expect(states.map((s) => s.status)).toEqual([
      'connecting',
      'live',
      'reconnecting',
      'resyncing',
      'live',
    ]);
    expect(states[2]!.nextRetryAt).toBe(1030);
    expect(states[3]!.nextRetryAt).toBeNull();
    expect(states[4]!.since).toBe(1100);
  });

  it('stays connecting while the snapshot loads, even with the subscription active', () => {
    const [open] = run([{ type: 'open', at: 5, resync: true }]);
    expect(open!.status).toBe('connecting');
    expect(open!.sync).toBe('initial');
  });

  it('shows reconnecting when the subscription drops during a resync, then resyncs again', () => {
    const states = run(
      [
        { type: 'resync', at: 1 },
        { type: 'close', at: 2, retryDelayMs: 5000 },
        { type: 'open', at: 5002, resync: true },
        { type: 'synced', at: 5100 },
      ],
      { ...initialConnection(0), socket: 'open', sync: 'idle', status: 'live' },
    );
    expect(states.map((s) => s.status)).toEqual(['resyncing', 'reconnecting', 'resyncing', 'live']);
  });

  it('is offline while the browser is, whatever else happens', () => {
    const states = run([
      { type: 'open', at: 1, resync: false },
      { type: 'synced', at: 2 },
      { type: 'offline', at: 3 },
      { type: 'close', at: 4, retryDelayMs: 1000 },
      { type: 'online', at: 5 },
    ]);
    expect(states.map((s) => s.status)).toEqual([
      'connecting',
      'live',
      'offline',
      'offline',
      'reconnecting',
    ]);
  });

  it('records the last event time without changing the status', () => {
    const start = {
      ...initialConnection(0),
      socket: 'open' as const,
      sync: 'idle' as const,
      status: 'live' as const,
    };
    const next = nextConnection(start, { type: 'events', at: 42 });
    expect(next.lastEventAt).toBe(42);
    expect(next.status).toBe('live');
    expect(nextConnection(next, { type: 'events', at: 42 })).toBe(next);
  });

  it('returns the same state for events that change nothing', () => {
    const state = initialConnection(0);
    expect(nextConnection(state, { type: 'online', at: 9 })).toBe(state);
    expect(nextConnection(state, { type: 'resync', at: 9 })).toBe(state);
  });

  it('derives the status from its parts', () => {
    expect(deriveStatus({ online: false, socket: 'open', sync: 'idle' })).toBe('offline');
    expect(deriveStatus({ online: true, socket: 'closed', sync: 'idle' })).toBe('reconnecting');
    expect(deriveStatus({ online: true, socket: 'connecting', sync: 'idle' })).toBe('connecting');
    expect(deriveStatus({ online: true, socket: 'open', sync: 'resyncing' })).toBe('resyncing');
    expect(deriveStatus({ online: true, socket: 'open', sync: 'idle' })).toBe('live');
  });

  it('gives the header its numbers', () => {
    const [closed] = run([{ type: 'close', at: 1000, retryDelayMs: 5000 }]);
    expect(secondsUntilRetry(closed!, 1000)).toBe(5);
    expect(secondsUntilRetry(closed!, 5500)).toBe(1);
    expect(secondsUntilRetry(initialConnection(0), 0)).toBeNull();
    expect(lastEventAgeSeconds({ ...initialConnection(0), lastEventAt: 1000 }, 4999)).toBe(3);
    expect(lastEventAgeSeconds(initialConnection(0), 10)).toBeNull();
  });
});
