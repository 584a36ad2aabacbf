// `mari diff` inputs and flags are bounded like eval's. --bootstrap above
// 1,000,000 ran for minutes (10^12 ended in exit 3); a FIFO as NEW blocked forever and /dev/zero was
// read to 630 MB before the regular-file rule refused it.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { DOC_SLICE, expectInputError } from "./helpers.js";
import { SYNC_CHILD } from "../support/children.js";

const tmp = tempDir("mari-diff-inputs-");
const report = join(tmp.dir, "old");
const fifo = join(tmp.dir, "fifo");
beforeAll(async () => {
  // OLD is an input here: written in this process.
  await runTask({ task: "documents", slicePath: DOC_SLICE, formats: ["json"] }, report);
  execFileSync("mkfifo", [fifo], SYNC_CHILD);
});
afterAll(() => tmp.cleanup());

describe("mari diff bounds", () => {
  it.each([
    ["--bootstrap", "1e12", /--bootstrap "1e12": expected an integer from 0 to 1000000/],
    ["--bootstrap", "20000000", /--bootstrap "20000000": expected an integer from 0 to 1000000/],
    ["--seed", "4294967296", /--seed "4294967296": expected an integer from 0 to 4294967295/],
  ])("%s %s is refused at once", async (flag, value, pattern) => {
    const r = await runMari(["diff", report, report, flag, value, "--out", join(tmp.dir, "d")]);
    expectInputError(r, pattern);
  });

  it.each([
    ["a FIFO as NEW", () => [report, fifo], /diff NEW .*fifo: is a FIFO \(named pipe\), not a regular file/],
    ["a FIFO as OLD", () => [fifo, report], /diff OLD .*fifo: is a FIFO \(named pipe\), not a regular file/],
    ["/dev/zero as NEW", () => [report, "/dev/zero"], /diff NEW \/dev\/zero: is a character device, not a regular file/],
  ])("%s is refused before it is read", async (_name, paths, pattern) => {
    // Read, a FIFO without a writer would block and /dev/zero would never end: the exit itself
    // shows the type was checked first.
    const r = await runMari(["diff", ...paths(), "--out", join(tmp.dir, "d")]);
    expectInputError(r, pattern);
  });
});
