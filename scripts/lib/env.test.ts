import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, projectPath } from './env.ts';

describe('projectPath', () => {
  it('resolves a relative path against the project root, not the working directory', () => {
    expect(projectPath('.data/backend', '/srv/livedesk')).toBe('/srv/livedesk/.data/backend');
    expect(projectPath('./x/../y', '/srv/livedesk')).toBe('/srv/livedesk/y');
    expect(projectPath('.data/backend')).toBe(join(PROJECT_ROOT, '.data/backend'));
  });

  it('keeps an absolute path', () => {
    expect(projectPath('/usr/bin/chromium', '/srv/livedesk')).toBe('/usr/bin/chromium');
  });

  it('takes the folder of package.json as the project root', () => {
    expect(existsSync(join(PROJECT_ROOT, 'package.json'))).toBe(true);
  });
});
