// Kept in step with package.json by test/cli/basics.test.ts.
export const MARI_VERSION = "0.1.0";
