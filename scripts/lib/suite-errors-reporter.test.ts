import { describe, expect, it } from 'vitest';
import { suiteErrors, type FinishedModule } from './suite-errors-reporter.ts';

const module = (
  moduleId: string,
  own: { message: string; name?: string }[],
  suites: { message: string; name?: string }[][],
): FinishedModule => ({
  moduleId,
  errors: () => own,
  children: { allSuites: () => suites.map((errors) => ({ errors: () => errors })) },
});

describe('suiteErrors', () => {
  it("names a file by its first own or suite error's first line, and leaves out files without", () => {
    const errors = suiteErrors(
      [
        module(
          '/repo/a.test.ts',
          [],
          [[], [{ name: 'AppwriteException', message: 'Timed out\nat …' }]],
        ),
        module('/repo/b.test.ts', [{ message: 'Error: Cannot find module x' }], []),
        module('/repo/c.test.ts', [], [[]]),
      ],
      [{ name: 'TypeError', message: 'x is not a function' }],
    );
    expect(errors).toEqual({
      byFile: {
        '/repo/a.test.ts': 'AppwriteException: Timed out',
        '/repo/b.test.ts': 'Error: Cannot find module x',
      },
      unhandled: ['TypeError: x is not a function'],
    });
  });

  it('keeps a message that already starts with its name as it is, cut to 300 characters', () => {
    const long = `Error: ${'x'.repeat(400)}`;
    const { byFile } = suiteErrors([module('/f.ts', [{ name: 'Error', message: long }], [])], []);
    expect(byFile['/f.ts']).toBe(long.slice(0, 300));
  });
});
