import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * What a run's JSON report leaves out: an error of a suite's hook (a `beforeAll` that threw) by
 * the file it is in, and errors outside every file. Written by {@link SuiteErrorsReporter}.
 */
export interface SuiteErrors {
  /** The first line of the first error of a suite or file, by the file's path. */
  byFile: Record<string, string>;
  /** First lines of the run's unhandled errors. */
  unhandled: string[];
}

/** The environment variable naming the file {@link SuiteErrorsReporter} writes. */
export const SUITE_ERRORS_FILE_VARIABLE = 'LIVEDESK_SUITE_ERRORS_FILE';

const firstLine = (error: SerializedError): string =>
  `${error.name && !error.message.startsWith(error.name) ? `${error.name}: ` : ''}${error.message}`
    .split('\n')[0]!
    .slice(0, 300);

/** A test file or suite as far as its own errors (not its tests') go. */
interface WithErrors {
  errors(): SerializedError[];
}

/** A finished test file: its errors and its suites' (Vitest's `TestModule` is one). */
export interface FinishedModule extends WithErrors {
  moduleId: string;
  children: { allSuites(): Iterable<WithErrors> };
}

/** The suite and file errors of finished modules, and the unhandled ones, as {@link SuiteErrors}. */
export function suiteErrors(
  modules: ReadonlyArray<FinishedModule>,
  unhandled: ReadonlyArray<SerializedError>,
): SuiteErrors {
  const byFile: Record<string, string> = {};
  for (const module of modules) {
    const errors = [
      ...module.errors(),
      ...[...module.children.allSuites()].flatMap((suite) => suite.errors()),
    ];
    if (errors.length) byFile[module.moduleId] = firstLine(errors[0]!);
  }
  return { byFile, unhandled: unhandled.map(firstLine) };
}

/** A Vitest reporter writing {@link SuiteErrors} to the file named by its variable, if set. */
export default class SuiteErrorsReporter implements Reporter {
  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandled: ReadonlyArray<SerializedError>,
  ): void {
    const file = process.env[SUITE_ERRORS_FILE_VARIABLE];
    if (file) writeFileSync(file, JSON.stringify(suiteErrors(modules, unhandled)));
  }
}
