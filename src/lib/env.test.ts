import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './env.ts';

describe('parseConfig', () => {
  it('accepts an endpoint ending in /v1 and a project id', () => {
    expect(
      parseConfig({
        VITE_APPWRITE_ENDPOINT: 'http://127.0.0.1:8787/v1',
        VITE_APPWRITE_PROJECT_ID: 'livedesk',
      }),
    ).toEqual({ endpoint: 'http://127.0.0.1:8787/v1', projectId: 'livedesk' });
  });

  it('lists every problem in one readable error', () => {
    let caught: unknown;
    try {
      parseConfig({ VITE_APPWRITE_ENDPOINT: 'localhost:8787' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('VITE_APPWRITE_ENDPOINT');
    expect(problems[1]).toContain('VITE_APPWRITE_PROJECT_ID');
    expect((caught as Error).message).toContain('.env.example');
  });
});
