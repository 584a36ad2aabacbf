// withoutOsr (src/tasks/document/without-osr.ts): inside the phase V8 compiles no loop on stack,
// after it (however the phase ended, nested phases included) it does again; a process started with
// its own OSR flag is left alone. Observed in a child node with --trace-osr, which logs each
// function V8 starts to compile on stack.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SYNC_CHILD } from "../support/children.js";
import { ROOT } from "../support/cli.js";

const MODULE = join(ROOT, "dist/tasks/document/without-osr.js");

/** Each function of the script below that V8 compiled on stack, in a child started with `flags`. */
function compiledOnStack(flags: string[]): Set<string> {
  const script = `
import { withoutOsr } from ${JSON.stringify(MODULE)};
// One long loop per function, each function named for where it runs.
const loop = (n) => { let s = 0; for (let i = 0; i < n; i++) s += i % 7; return s; };
const N = 3e7;
function inside() { let s = 0; for (let i = 0; i < N; i++) s += i % 7; return s; }
function thrown() { let s = 0; for (let i = 0; i < N; i++) s += i % 5; return s; }
function nestedAfterInner() { let s = 0; for (let i = 0; i < N; i++) s += i % 3; return s; }
function after() { let s = 0; for (let i = 0; i < N; i++) s += i % 11; return s; }
await withoutOsr(async () => inside());
await withoutOsr(async () => { thrown(); throw new Error("phase failed"); }).catch(() => {});
await withoutOsr(async () => { await withoutOsr(async () => loop(10)); return nestedAfterInner(); });
after();
`;
  const r = spawnSync(process.execPath, [...flags, "--input-type=module", "-e", script], { encoding: "utf8", ...SYNC_CHILD });
  expect(r.status, r.stderr).toBe(0);
  return new Set([...r.stdout.matchAll(/\[OSR - compilation started\. function: (\w+)/g)].map((m) => m[1]!));
}

describe("a phase without on-stack replacement", () => {
  it("compiles none of its loops on stack, and the process does again after it, however it ended", () => {
    const names = compiledOnStack(["--trace-osr"]);
    expect(names.has("after")).toBe(true);
    expect(names.has("inside")).toBe(false);
    expect(names.has("thrown")).toBe(false);
    expect(names.has("nestedAfterInner")).toBe(false);
  });

  it("leaves a process started with its own choice alone", () => {
    const names = compiledOnStack(["--trace-osr", "--use-osr"]);
    expect(names.has("inside")).toBe(true);
    expect(names.has("after")).toBe(true);
  });
});
