// The tests Stryker runs against mutated sources (`npm run mutation`, stryker.config.mjs): the
// in-process tests of the document core, the metrics and the gates. Tests that spawn the CLI or
// use worker threads run dist/, which Stryker does not mutate, so they are left out: they would
// only be slower, never kill a mutant. No global setup: nothing here needs dist/.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "test/core/**/*.test.ts",
      "test/gates/{baseline,boundaries,config,evaluate,flag-edges,paired-property,paired-side,paired,spec}.test.ts",
      "test/document-eval/{bytes,dump,golden-oracle,metrics,setcons,slice,strict-missing}.test.ts",
    ],
    pool: "threads",
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
