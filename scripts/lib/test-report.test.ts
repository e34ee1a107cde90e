import { describe, expect, it } from 'vitest';
import {
  stageTotals,
  totalLine,
  vitestCounts,
  withSuiteErrors,
  type VitestReport,
} from './test-report.ts';

function report(files: VitestReport['testResults']): VitestReport {
  const tests = files.flatMap((file) => file.assertionResults);
  const count = (...statuses: string[]) =>
    tests.filter((test) => statuses.includes(test.status)).length;
  return {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('pending', 'skipped'),
    numTodoTests: count('todo'),
    numTotalTests: tests.length,
    testResults: files,
  };
}

const file = (name: string, statuses: string[], message = ''): VitestReport['testResults'][0] => ({
  name: `/repo/integration/suites/${name}`,
  status: statuses.includes('failed') || message ? 'failed' : 'passed',
  message,
  assertionResults: statuses.map((status, i) => ({ fullName: `${name} test ${i}`, status })),
});

describe('vitestCounts', () => {
  it("keeps Vitest's counts and names failed files by file, not by suite", () => {
    const counts = vitestCounts(
      report([
        file('a.int.test.ts', ['passed', 'failed', 'failed']),
        file('b.int.test.ts', ['passed', 'skipped']),
      ]),
      false,
    );
    expect(counts).toMatchObject({ passed: 2, failed: 2, notRun: 1 });
    expect(counts.notes).toEqual([
      '1 file(s) failed',
      'failed: suites/a.int.test.ts › a.int.test.ts test 1; suites/a.int.test.ts › a.int.test.ts test 2',
    ]);
  });

  it('names a failed test with the first line of its failure', () => {
    const failing = file('f.int.test.ts', ['failed']);
    failing.assertionResults[0]!.failureMessages = ['AssertionError: expected 1 to be 2\n  at …'];
    expect(vitestCounts(report([failing]), false).notes[1]).toBe(
      'failed: suites/f.int.test.ts › f.int.test.ts test 0 (AssertionError: expected 1 to be 2)',
    );
  });

  it('counts a file that failed outside its tests as one failed check', () => {
    const counts = vitestCounts(
      report([
        file('c.int.test.ts', [], 'Cannot find module x\n  at …'),
        file('d.int.test.ts', ['passed']),
      ]),
      false,
    );
    expect(counts).toMatchObject({ passed: 1, failed: 1, notRun: 0 });
    expect(counts.notes[1]).toBe(
      '1 outside their tests (counted as failed): suites/c.int.test.ts (Cannot find module x)',
    );
  });

  it('counts a test that did not run as failed where the stage should run all', () => {
    const files = [file('e.int.test.ts', ['passed', 'skipped', 'todo'])];
    expect(vitestCounts(report(files), false)).toMatchObject({ passed: 1, failed: 0, notRun: 2 });
    const complete = vitestCounts(report(files), true);
    expect(complete).toMatchObject({ passed: 1, failed: 2, notRun: 0 });
    expect(complete.notes).toEqual([
      '2 test(s) did not run on a stage that should run all, counted as failed: e.int.test.ts test 1; e.int.test.ts test 2',
    ]);
  });
});

describe('withSuiteErrors', () => {
  it("fills in a failed file's empty message with its suite's error, and notes unhandled errors", () => {
    const hook = file('g.int.test.ts', ['skipped', 'skipped']);
    hook.status = 'failed';
    const passed = file('h.int.test.ts', ['passed']);
    const { report: filled, notes } = withSuiteErrors(report([hook, passed]), {
      byFile: { [hook.name]: 'AppwriteException: timed out', [passed.name]: 'never shown' },
      unhandled: ['TypeError: x is not a function'],
    });
    expect(filled.testResults.map((result) => result.message)).toEqual([
      'AppwriteException: timed out',
      '',
    ]);
    expect(vitestCounts(filled, true).notes[1]).toBe(
      '1 outside their tests (counted as failed): suites/g.int.test.ts (AppwriteException: timed out)',
    );
    expect(notes).toEqual(['1 unhandled error(s): TypeError: x is not a function']);
  });

  it("keeps the JSON report's own message of a file", () => {
    const broken = file('i.int.test.ts', [], 'Cannot find module y');
    const { report: kept, notes } = withSuiteErrors(report([broken]), {
      byFile: { [broken.name]: 'other' },
      unhandled: [],
    });
    expect(kept.testResults[0]!.message).toBe('Cannot find module y');
    expect(notes).toEqual([]);
  });
});

describe('stageTotals and totalLine', () => {
  it('counts a stage without tests as one check, and a failed stage as at least one failure', () => {
    expect(stageTotals({ outcome: 'passed' })).toEqual({ passed: 1, failed: 0, notRun: 0 });
    expect(stageTotals({ outcome: 'not run' })).toEqual({ passed: 0, failed: 0, notRun: 1 });
    expect(stageTotals({ outcome: 'failed', passed: 40, failed: 0, notRun: 0 })).toEqual({
      passed: 40,
      failed: 1,
      notRun: 0,
    });
  });

  it('adds up every stage in one line', () => {
    expect(
      totalLine([
        { outcome: 'passed' },
        { outcome: 'passed', passed: 300, failed: 0, notRun: 0 },
        { outcome: 'failed', passed: 98, failed: 2, notRun: 0 },
        { outcome: 'not run', passed: 0, failed: 0, notRun: 120 },
      ]),
    ).toBe('399 passed, 2 failed, 120 not run');
  });
});
