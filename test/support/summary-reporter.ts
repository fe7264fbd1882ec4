/**
 * Prints one plain closing line, `N passed, N failed, N skipped`, that any CI
 * log reader understands, and lists every skipped test with its reason so a
 * skip is never silent.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skips: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') failed++;
        else if (result.state === 'skipped') {
          skipped++;
          const note = result.note;
          skips.push(`  skipped: ${test.fullName}${note ? ` (${note})` : ''}`);
        }
      }
    }
    if (skips.length > 0) process.stdout.write(`\nSkipped tests and why:\n${skips.join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
