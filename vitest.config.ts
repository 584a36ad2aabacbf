import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS, TIME_SCALE, TIME_SCALE_ENV } from "./test/support/time-limits.js";

// The test workers read the scale the suite started with (test/support/time-limits.ts).
process.env[TIME_SCALE_ENV] = String(TIME_SCALE);

/**
 * The files that take longest, slowest first. A file runs on one worker, so one started last
 * leaves the other worker idle until it ends; vitest orders by the durations of the previous run,
 * which a fresh clone (CI) does not have, and otherwise by file size.
 */
const LONGEST_FILES = [
  "test/trainers/trl-grpo.test.ts",
  "test/hostile/parquet-huge-rows.test.ts",
  "test/hostile/log-fuzz.test.ts",
  "test/real-tools/lm-eval.test.ts",
  "test/gates/merge-gates.test.ts",
  "test/hostile/fuzz.test.ts",
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = LONGEST_FILES.findIndex((name) => file.moduleId.endsWith(name));
      return i === -1 ? LONGEST_FILES.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/ from src/ when it is not the build of the current sources (scripts/build.mjs).
    globalSetup: ["./test/support/global-setup.ts"],
    // Every child process a test starts ends with the test, passed or not (test/support/children.ts).
    setupFiles: ["./test/support/end-children.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    sequence: { sequencer: LongestFirst },
    // Most of the suite's time is CLI child processes; one worker thread per core with no per-file
    // isolation saves the per-file start-up (about 50 s -> 40 s on 2 cores). A test that needs a
    // fresh module or environment must set it up itself.
    pool: "threads",
    isolate: false,
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, and the
    // children it spawns leave the second core idle (about 190 s -> 95 s here).
    maxWorkers: Math.max(2, availableParallelism()),
    // Sized for a loaded CI machine, not an idle one, and scaled by the load the suite starts at: a
    // CLI test that takes 2 s idle took over 30 s at load 20 on 2 cores. No test asserts on elapsed
    // time; a test that needs longer (a real Python tool) says so itself, scaled the same way.
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: HOOK_TIMEOUT_MS,
  },
});
