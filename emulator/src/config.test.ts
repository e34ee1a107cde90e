import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFromEnv, prepareDataDir } from './config.ts';

const KEY = { APPWRITE_API_KEY: 'k'.repeat(16) };

describe('configFromEnv', () => {
  it('resolves a relative BACKEND_DATA_DIR against the given working directory', () => {
    const config = configFromEnv({ ...KEY, BACKEND_DATA_DIR: '.data/backend' }, '/srv/livedesk');
    expect(config.dataDir).toBe('/srv/livedesk/.data/backend');
    expect(
      configFromEnv({ ...KEY, BACKEND_DATA_DIR: '../elsewhere/data' }, '/srv/app').dataDir,
    ).toBe('/srv/elsewhere/data');
  });

  it('defaults to .data/backend under the working directory', () => {
    expect(configFromEnv(KEY, '/srv/livedesk').dataDir).toBe('/srv/livedesk/.data/backend');
  });

  it('keeps an absolute BACKEND_DATA_DIR, normalized', () => {
    expect(configFromEnv({ ...KEY, BACKEND_DATA_DIR: '/var/lib//livedesk/' }, '/x').dataDir).toBe(
      '/var/lib/livedesk',
    );
  });

  it('resolves against process.cwd() by default', () => {
    expect(configFromEnv({ ...KEY, BACKEND_DATA_DIR: 'data' }).dataDir).toBe(
      join(process.cwd(), 'data'),
    );
  });

  it('lists every problem at once', () => {
    expect(() =>
      configFromEnv({ BACKEND_PORT: 'x', BACKEND_DATA_DIR: ' ', APPWRITE_PROJECT_ID: 'A' }),
    ).toThrow(
      /BACKEND_PORT must be a port number, got "x"\n.*APPWRITE_PROJECT_ID.*\n.*APPWRITE_API_KEY.*\n.*BACKEND_DATA_DIR must name a folder/,
    );
  });
});

describe('prepareDataDir', () => {
  const work = mkdtempSync(join(tmpdir(), 'livedesk-config-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('creates the folder and its parents', () => {
    const dir = join(work, 'a', 'b', 'data');
    prepareDataDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    prepareDataDir(dir);
  });

  it('fails with one line naming the folder when a file is in the way', () => {
    const file = join(work, 'a-file');
    writeFileSync(file, '');
    for (const dir of [file, join(file, 'data')]) {
      let message = '';
      try {
        prepareDataDir(dir);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe(
        `The data folder ${dir} (BACKEND_DATA_DIR) cannot be created or written: a file is in the way (${dir === file ? 'EEXIST' : 'ENOTDIR'}).`,
      );
    }
  });
});
