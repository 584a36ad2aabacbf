// CI reads a closing line "N passed, N failed" (optionally ", N skipped"); vitest's own summary
// has a different shape, so this reporter prints that line last. Before it, one line per skipped
// test with the reason it gave (`ctx.skip(reason)`), so that no skip goes unnoticed.
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skips: string[] = [];
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else {
          skipped++;
          const result = test.result();
          const note = result.state === "skipped" && result.note ? result.note : `no reason given (${test.options.mode})`;
          skips.push(`skipped: ${mod.moduleId.replace(`${process.cwd()}/`, "")} > ${test.fullName}: ${note}`);
        }
      }
      // A file that fails to load has no tests but must still count as a failure.
      if (mod.state() === "failed" && [...mod.children.allTests()].length === 0) failed++;
    }
    if (skips.length > 0) process.stdout.write(`\n${skips.join("\n")}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
