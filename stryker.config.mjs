// Mutation testing of the document core, the metrics and the gates against their in-process
// tests (vitest.mutation.config.ts): `npm run mutation`, not part of CI (it takes far longer than
// the suite). Reports: reports/mutation/mutation.html and a summary on stdout. A narrower run:
// `npm run mutation -- --mutate src/gates/evaluate.ts`.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: ["src/core/document/**/*.ts", "src/core/metrics/**/*.ts", "src/gates/**/*.ts"],
  coverageAnalysis: "perTest",
  // Static mutants (module-level code run once at import, about half of all here) each need the
  // whole test list and took 84% of the time; `--ignoreStatic false` includes them.
  ignoreStatic: true,
  reporters: ["clear-text", "html", "progress"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  concurrency: 2,
  timeoutMS: 20_000,
  ignorePatterns: ["dist", "coverage", "bench/out", "bench/results", "reports"],
  tempDirName: ".stryker-tmp",
};
