import type { SuiteErrors } from './suite-errors-reporter.ts';

/** The parts of Vitest's JSON report (`--reporter=json`) that `npm test` reads. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTests: number;
  testResults: {
    name: string;
    status: 'passed' | 'failed';
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/**
 * The report with each failed file's message filled in from `errors` where Vitest's JSON report
 * leaves it empty (a suite's hook failed), and a note of the run's unhandled errors.
 */
export function withSuiteErrors(
  report: VitestReport,
  errors: SuiteErrors,
): { report: VitestReport; notes: string[] } {
  const testResults = report.testResults.map((file) =>
    file.status === 'failed' && !file.message && errors.byFile[file.name]
      ? { ...file, message: errors.byFile[file.name]! }
      : file,
  );
  const notes = errors.unhandled.length
    ? [`${errors.unhandled.length} unhandled error(s): ${errors.unhandled.slice(0, 3).join('; ')}`]
    : [];
  return { report: { ...report, testResults }, notes };
}

/** Passed, failed and not-run counts of a stage (tests, or checks for a stage without tests). */
export interface Counts {
  passed: number;
  failed: number;
  notRun: number;
}

/** What a Vitest run counts as, with why, in a few words. */
export interface VitestCounts extends Counts {
  /** Notes for the summary (empty when there is nothing to say). */
  notes: string[];
}

const NOT_RUN = new Set(['pending', 'skipped', 'todo', 'disabled']);

/**
 * The counts of one Vitest run, from its JSON report. Vitest's own numbers, except:
 * - a file that failed outside its tests (an import, a hook) with no failed test counts as one
 *   failed check, so that a failed run never adds up to "0 failed";
 * - on a stage that should run everything (`complete`: a target that has every facility), a test
 *   that did not run is a failure, not a hidden not-run.
 */
export function vitestCounts(report: VitestReport, complete: boolean): VitestCounts {
  const notes: string[] = [];
  let failed = report.numFailedTests;
  const failedFiles = report.testResults.filter((file) => file.status === 'failed');
  if (failedFiles.length) notes.push(`${failedFiles.length} file(s) failed`);
  const failedTests = report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'failed')
      .map((test) => ({ file: file.name.split('/').slice(-2).join('/'), test })),
  );
  if (failedTests.length)
    notes.push(
      `failed: ${failedTests
        .slice(0, 5)
        .map(({ file, test }) => {
          const reason = test.failureMessages?.[0]?.split('\n')[0]?.slice(0, 200);
          return `${file} › ${test.fullName}${reason ? ` (${reason})` : ''}`;
        })
        .join('; ')}${failedTests.length > 5 ? '; …' : ''}`,
    );
  const outside = failedFiles.filter(
    (file) => !file.assertionResults.some((test) => test.status === 'failed'),
  );
  if (outside.length) {
    failed += outside.length;
    notes.push(
      `${outside.length} outside their tests (counted as failed): ${outside
        .map(
          (file) =>
            `${file.name.split('/').slice(-2).join('/')}${file.message ? ` (${file.message.split('\n')[0]})` : ''}`,
        )
        .join(', ')}`,
    );
  }
  let notRun = report.numPendingTests + report.numTodoTests;
  if (complete && notRun > 0) {
    const names = report.testResults.flatMap((file) =>
      file.assertionResults.filter((test) => NOT_RUN.has(test.status)).map((test) => test.fullName),
    );
    notes.push(
      `${notRun} test(s) did not run on a stage that should run all, counted as failed: ${names.slice(0, 5).join('; ')}${names.length > 5 ? '; …' : ''}`,
    );
    failed += notRun;
    notRun = 0;
  }
  return { passed: report.numPassedTests, failed, notRun, notes };
}

/** A stage's result as the summary adds it up. */
export interface StageCounts extends Partial<Counts> {
  outcome: 'passed' | 'failed' | 'not run';
}

/**
 * The counts a stage adds to the last line: its own, or — for a stage without counts (lint,
 * typecheck, a check) — one check with its outcome. A failed stage whose counts show no failure
 * (it failed outside its tests: timed out, crashed) adds one failed check.
 */
export function stageTotals(stage: StageCounts): Counts {
  if (stage.passed === undefined && stage.failed === undefined && stage.notRun === undefined)
    return {
      passed: stage.outcome === 'passed' ? 1 : 0,
      failed: stage.outcome === 'failed' ? 1 : 0,
      notRun: stage.outcome === 'not run' ? 1 : 0,
    };
  const counts = {
    passed: stage.passed ?? 0,
    failed: stage.failed ?? 0,
    notRun: stage.notRun ?? 0,
  };
  if (stage.outcome === 'failed' && counts.failed === 0) counts.failed = 1;
  return counts;
}

/** The last line of `npm test`: `N passed, N failed, N not run`. */
export function totalLine(stages: readonly StageCounts[]): string {
  const total = { passed: 0, failed: 0, notRun: 0 };
  for (const stage of stages) {
    const counts = stageTotals(stage);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.notRun += counts.notRun;
  }
  return `${total.passed} passed, ${total.failed} failed, ${total.notRun} not run`;
}
