// Setup file of every test file (vitest.config.ts): children a test started end when it ends,
// children a beforeAll started end with the file (test/support/children.ts).
import { afterAll, afterEach, beforeEach } from "vitest";
import { endFileChildren, endTestChildren, setInTest } from "./children.js";

beforeEach(() => setInTest(true));
afterEach(async () => {
  setInTest(false);
  await endTestChildren();
});
afterAll(endFileChildren);
