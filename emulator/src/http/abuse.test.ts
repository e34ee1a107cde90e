import { describe, expect, it } from 'vitest';
import { MODULES } from '../modules.ts';
import { ABUSE_LABELS, AbuseCounters, abuseKeys, type AbuseLabel } from './abuse.ts';

const label: AbuseLabel = { limit: 3, seconds: 60, keys: ['url:{url},ip:{ip}'] };

/** A clock standing at `unixSeconds` that a test moves forward. */
function clockAt(unixSeconds: number): { now(): number; advance(ms: number): void } {
  let ms = unixSeconds * 1000;
  return { now: () => ms, advance: (by) => (ms += by) };
}

describe('abuseKeys', () => {
  const request = {
    url: 'localhost/v1/account/sessions/email',
    ip: '10.0.0.1',
    userId: '',
    method: 'POST',
    chunkId: 2,
    params: { email: 'a@b.c', password: 'secret', empty: '', list: ['x'] },
  };

  it('fills the placeholders of every key template', () => {
    expect(
      abuseKeys(
        {
          limit: 1,
          seconds: 1,
          keys: ['url:{url},email:{param-email}', 'ip:{ip},chunkId:{chunkId}'],
        },
        request,
      ),
    ).toEqual(['url:localhost/v1/account/sessions/email,email:a@b.c', 'ip:10.0.0.1,chunkId:2']);
    expect(abuseKeys({ limit: 1, seconds: 1, keys: ['l:{param-list}'] }, request)).toEqual([
      'l:["x"]',
    ]);
  });

  it('leaves a placeholder without a value as written, as Appwrite does', () => {
    expect(
      abuseKeys({ limit: 1, seconds: 1, keys: ['e:{param-empty},u:{userId}'] }, request),
    ).toEqual(['e:{param-empty},u:']);
  });
});

describe('AbuseCounters', () => {
  it('counts requests 1..limit, refuses the next without counting it, in a fixed window', () => {
    // 1_000_000 is 40 s into the window that starts at 999_960 (a multiple of 60) and ends at 1_000_020.
    const clock = clockAt(1_000_000);
    const counters = new AbuseCounters(clock);
    const verdicts = Array.from({ length: 5 }, () => counters.check(label, ['k'], true));
    expect(verdicts.map((verdict) => verdict.limited)).toEqual([false, false, false, true, true]);
    expect(verdicts.map((verdict) => verdict.headers['X-RateLimit-Remaining'])).toEqual([
      '2',
      '1',
      '0',
      '0',
      '0',
    ]);
    expect(verdicts[0]!.headers).toMatchObject({
      'X-RateLimit-Limit': '3',
      'X-RateLimit-Reset': '1000020',
    });
    clock.advance(20_000);
    expect(counters.check(label, ['k'], true).limited).toBe(false);
  });

  it('keeps one counter per key, and starts one again on reset', () => {
    const counters = new AbuseCounters(clockAt(2_000_000));
    for (let i = 0; i < 3; i++) counters.check(label, ['a'], true);
    expect(counters.check(label, ['a'], true).limited).toBe(true);
    expect(counters.check(label, ['b'], true).limited).toBe(false);
    counters.reset(['a']);
    expect(counters.check(label, ['a'], true).limited).toBe(false);
  });

  it('neither counts nor refuses when not enforced, but still answers the headers', () => {
    const counters = new AbuseCounters(clockAt(3_000_000));
    for (let i = 0; i < 10; i++) {
      const verdict = counters.check(label, ['k'], false);
      expect(verdict.limited).toBe(false);
      expect(verdict.headers['X-RateLimit-Remaining']).toBe('2');
    }
  });
});

describe('AbuseCounters memory', () => {
  it('drops counters of ended windows and never keeps more than 200,000', () => {
    const clock = clockAt(4_000_000);
    const counters = new AbuseCounters(clock);
    for (let i = 0; i < 10_000; i++) counters.check(label, [`old${i}`], true);
    clock.advance(120_000);
    for (let i = 0; i < 205_000; i++) counters.check(label, [`new${i}`], true);
    expect(counters.size).toBeLessThanOrEqual(200_000);
    expect(counters.check(label, ['new204999'], true).headers['X-RateLimit-Remaining']).toBe('1');
  });
});

describe('ABUSE_LABELS', () => {
  it('names routes the backend serves', () => {
    const served = new Set(
      Object.values(MODULES).flatMap((module) =>
        module.routes.map((route) => `${route.method} ${route.path}`),
      ),
    );
    const unknown = Object.keys(ABUSE_LABELS).filter((key) => !served.has(key));
    expect(unknown).toEqual([]);
  });
});
