import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** A file that would sit at `file` (relative to the root) importing `from`, and the rule's words. */
interface WrongImport {
  readonly file: string;
  readonly from: string;
  readonly message: string;
}

const wrongImports: readonly WrongImport[] = [
  { file: 'domain/probe.ts', from: '../store/index.ts', message: 'domain/ is pure' },
  {
    file: 'store/probe.ts',
    from: '../src/lib/format.ts',
    message: 'store/ depends only on domain/',
  },
  {
    file: 'src/features/orders/probe.ts',
    from: '../../../store/sync/engine.ts',
    message: 'the app reaches the store only through store/index.ts',
  },
  {
    file: 'scripts/probe.ts',
    from: '../store/sync/engine.ts',
    message: 'import the store through store/index.ts',
  },
  {
    file: 'src/features/orders/probe.ts',
    from: '../board/board-page.tsx',
    message: 'a feature imports another feature only through its index.ts',
  },
  {
    file: 'scripts/probe.ts',
    from: '../integration/support/load-size.ts',
    message: 'scripts/ does not import integration/',
  },
  {
    file: 'emulator/src/probe.ts',
    from: '../../domain/ids.ts',
    message: 'emulator/ imports nothing from the product',
  },
  {
    file: 'emulator/src/core/probe.ts',
    from: '../http/server.ts',
    message: "the emulator's core/ knows no HTTP and no service",
  },
  {
    file: 'scripts/probe.ts',
    from: '../emulator/src/index.ts',
    message: 'the product reaches the local backend only over HTTP',
  },
  {
    file: 'functions/order-action/src/probe.ts',
    from: '../../../store/index.ts',
    message: 'functions depend only on domain/',
  },
  {
    file: 'functions/_shared/probe.ts',
    from: '../../store/sync/persist.ts',
    message: 'functions depend only on domain/',
  },
  {
    file: 'functions/order-action/src/probe.ts',
    from: '../../../store/sync/snapshot-file.ts',
    message: 'functions depend only on domain/',
  },
  {
    file: 'functions/desk-snapshot/src/probe.ts',
    from: '../../../store/sync/engine.ts',
    message: "desk-snapshot imports of the store only the snapshot's format",
  },
  {
    file: 'functions/desk-snapshot/src/probe.ts',
    from: '../../../store/index.ts',
    message: "desk-snapshot imports of the store only the snapshot's format",
  },
  {
    file: 'src/lib/probe.ts',
    from: '../features/auth/index.ts',
    message: 'src/lib is shared by every part of the app',
  },
  {
    file: 'src/components/probe.tsx',
    from: '../../store/index.ts',
    message: 'components are presentational',
  },
  {
    file: 'src/app/probe.ts',
    from: '../../scripts/lib/random.ts',
    message: 'the app imports no script, test or function',
  },
];

async function messagesFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('import boundaries (eslint.config.js)', () => {
  it.each(wrongImports)('refuses $from in $file', async ({ file, from, message }) => {
    const messages = await messagesFor(file, `export * from '${from}';\n`);
    expect(messages).toContainEqual(expect.stringContaining(message));
  });

  it('lets each layer import what it may', async () => {
    const allowed: [string, string][] = [
      ['src/features/orders/probe.ts', '../../../store/index.ts'],
      ['store/probe.ts', '../domain/ids.ts'],
      ['functions/order-action/src/probe.ts', '../../../domain/ids.ts'],
      // desk-snapshot writes the store's snapshot format (eslint.config.js `snapshotFormatModules`).
      ['functions/desk-snapshot/src/probe.ts', '../../../store/sync/documents.ts'],
      ['functions/desk-snapshot/src/probe.ts', '../../../store/sync/persist.ts'],
      ['functions/desk-snapshot/src/probe.ts', '../../../store/sync/snapshot-file.ts'],
      ['functions/desk-snapshot/src/probe.ts', '../../../store/sync/desk-window.ts'],
      ['functions/desk-snapshot/src/probe.ts', '../../../store/sync/pager.ts'],
      ['integration/suites/probe.ts', '../../scripts/lib/random.ts'],
      ['src/features/orders/probe.ts', '../../components/button.tsx'],
    ];
    for (const [file, from] of allowed) {
      const messages = await messagesFor(file, `export * from '${from}';\n`);
      expect(messages.filter((m) => m.startsWith('import-x/no-restricted-paths'))).toEqual([]);
    }
  });
});
