// unoptimized (src/tasks/document/unoptimized.ts): inside the phase V8 optimizes nothing, neither
// a hot function nor a long loop on stack; after it (however the phase ended, nested phases
// included) it does again; a process started with its own choice of these compilers is left alone.
// Observed in a child node with --trace-opt and --trace-osr, which log what V8 starts to compile.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SYNC_CHILD } from "../support/children.js";
import { ROOT } from "../support/cli.js";

const MODULE = join(ROOT, "dist/tasks/document/unoptimized.js");

/** The functions of the script below that V8 started to optimize, in a child started with `flags`. */
function optimized(flags: string[]): Set<string> {
  const script = `
import { unoptimized } from ${JSON.stringify(MODULE)};
const N = 3e7;
// Each phase has a long loop (compiled on stack when allowed) and a small function it calls often.
function insideLoop() { let s = 0; for (let i = 0; i < N; i++) s += i % 7; return s; }
function insideHot(i) { return (i * 31) % 17; }
function thrownLoop() { let s = 0; for (let i = 0; i < N; i++) s += i % 5; return s; }
function nestedLoop() { let s = 0; for (let i = 0; i < N; i++) s += i % 3; return s; }
function afterLoop() { let s = 0; for (let i = 0; i < N; i++) s += i % 11; return s; }
function afterHot(i) { return (i * 29) % 13; }
const calls = (f) => { let s = 0; for (let k = 0; k < 200; k++) for (let i = 0; i < 5000; i++) s += f(i); return s; };
await unoptimized(async () => insideLoop() + calls(insideHot));
await unoptimized(async () => { thrownLoop(); throw new Error("phase failed"); }).catch(() => {});
await unoptimized(async () => { await unoptimized(async () => 0); return nestedLoop(); });
afterLoop() + calls(afterHot);
`;
  const r = spawnSync(process.execPath, ["--trace-opt", "--trace-osr", ...flags, "--input-type=module", "-e", script], { encoding: "utf8", ...SYNC_CHILD });
  expect(r.status, r.stderr).toBe(0);
  const names = new Set<string>();
  for (const m of r.stdout.matchAll(/\[OSR - compilation started\. function: (\w+)/g)) names.add(m[1]!);
  for (const m of r.stdout.matchAll(/\[compiling method \S+ <JSFunction (\w+)/g)) names.add(m[1]!);
  return names;
}

describe("a phase run unoptimized", () => {
  it("optimizes none of its functions or loops, and the process does again after it, however it ended", () => {
    const names = optimized([]);
    expect(names.has("afterLoop")).toBe(true);
    expect(names.has("afterHot")).toBe(true);
    for (const inside of ["insideLoop", "insideHot", "thrownLoop", "nestedLoop"]) expect(names.has(inside), inside).toBe(false);
  });

  it("leaves a process started with its own choice alone", () => {
    const names = optimized(["--use-osr"]);
    expect(names.has("insideLoop")).toBe(true);
    expect(names.has("afterLoop")).toBe(true);
  });
});
