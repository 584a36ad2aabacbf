// The output lock and Ctrl-C: the SIGINT/SIGTERM handlers that remove the lock are in place before
// the lock file exists. A signal that came between the two (an interrupt sent as soon as the lock
// appears, on a loaded machine) met the default action instead: the process died by the signal
// (no exit 130) and the lock stayed. Checked in a child process that sees, at the moment the lock
// file is written, how many SIGINT listeners there are.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SYNC_CHILD } from "../support/children.js";
import { ROOT, tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir("mari-lock-signals-");
afterAll(cleanup);

const SCRIPT = `
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
const write = fs.writeFileSync;
let listeners = -1;
fs.writeFileSync = (path, ...rest) => {
  const result = write(path, ...rest);
  if (String(path).endsWith(".mari.lock")) listeners = process.listenerCount("SIGINT");
  return result;
};
syncBuiltinESMExports();
const { lockOutputDir } = await import(process.argv[1]);
lockOutputDir(process.argv[2]);
console.log(listeners);
`;

describe("output lock", () => {
  it("has its SIGINT cleanup listening when the lock file is written, and removes it at exit", () => {
    const out = join(dir, "out");
    const said = execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT, join(ROOT, "dist/io/lock.js"), out], { ...SYNC_CHILD, encoding: "utf8" });
    expect(Number(said.trim())).toBeGreaterThanOrEqual(1);
    // The run ended: its lock is gone with it (and the directory it created, left empty).
    expect(existsSync(join(out, ".mari.lock"))).toBe(false);
  });
});
