// Kept in step with package.json by test/version.test.ts.
export const MARI_VERSION = "0.1.0";
