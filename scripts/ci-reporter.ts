// A vitest reporter for `.ci/run`: it records, in the JSON file named by
// LEADROUTE_CI_NOTES, every test that failed (with the first line of its error) and
// every test that passed only on a retry, so the closing lines of CI name them instead
// of leaving only a count at the end of a long log.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

export interface CiNote {
  readonly file: string;
  readonly test: string;
  readonly outcome: 'failed' | 'flaky';
  readonly retries: number;
  readonly error?: string;
}

export default class CiReporter implements Reporter {
  private readonly notes: CiNote[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    const diagnostic = testCase.diagnostic();
    const file = relative(process.cwd(), testCase.module.moduleId);
    if (result.state === 'failed') {
      const error = result.errors?.[0]?.message?.split('\n')[0];
      this.notes.push({
        file,
        test: testCase.fullName,
        outcome: 'failed',
        retries: diagnostic?.retryCount ?? 0,
        ...(error ? { error } : {}),
      });
    } else if (result.state === 'passed' && diagnostic?.flaky) {
      this.notes.push({ file, test: testCase.fullName, outcome: 'flaky', retries: diagnostic.retryCount });
    }
  }

  onTestRunEnd(): void {
    const target = process.env.LEADROUTE_CI_NOTES;
    if (target) writeFileSync(target, `${JSON.stringify(this.notes, null, 2)}\n`);
  }
}
