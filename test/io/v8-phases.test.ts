// v8-phases (src/io/v8-phases.ts): inside an `unoptimized` phase V8 optimizes nothing, neither a hot
// function nor a long loop on stack; inside a `withoutPretenuring` phase it decides nothing about
// where the objects of a literal are made. After either (however the phase ended, nested phases
// included) it does again; a process started with its own choice of a setting is left alone.
// Observed in a child node with V8's own traces: --trace-opt and --trace-osr log what V8 starts to
// compile, --trace-pretenuring-statistics each decision about a literal's objects.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SYNC_CHILD } from "../support/children.js";
import { ROOT } from "../support/cli.js";

const MODULE = join(ROOT, "dist/io/v8-phases.js");

/** Runs `script` (an ES module importing the phases) in a child node with `flags`; its stdout. */
function traced(flags: string[], script: string): string {
  const source = `import { unoptimized, withoutPretenuring } from ${JSON.stringify(MODULE)};\n${script}`;
  const r = spawnSync(process.execPath, [...flags, "--input-type=module", "-e", source], { encoding: "utf8", ...SYNC_CHILD });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The functions of the script below that V8 started to optimize, in a child started with `flags`. */
function optimized(flags: string[]): Set<string> {
  const stdout = traced(
    ["--trace-opt", "--trace-osr", ...flags],
    `
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
`,
  );
  const names = new Set<string>();
  for (const m of stdout.matchAll(/\[OSR - compilation started\. function: (\w+)/g)) names.add(m[1]!);
  for (const m of stdout.matchAll(/\[compiling method \S+ <JSFunction (\w+)/g)) names.add(m[1]!);
  return names;
}

/**
 * Which of the script's kept objects V8 decided about, by literal: each phase keeps 300,000
 * objects made at literals of its own (an object and an array: every one survives), and prints its
 * name before V8's decisions about it.
 */
function pretenuringDecisions(flags: string[]): Map<string, number> {
  const stdout = traced(
    ["--trace-pretenuring-statistics", ...flags],
    `
const kept = [];
const keep = (make) => { for (let i = 0; i < 300000; i++) kept.push(make(i)); };
const phase = (name) => console.log("phase " + name);
phase("inside"); await withoutPretenuring(async () => keep((i) => ({ inside: i, list: [i] })));
phase("thrown"); await withoutPretenuring(async () => { keep((i) => ({ thrown: i, list: [i] })); throw new Error("phase failed"); }).catch(() => {});
phase("nested"); await withoutPretenuring(async () => { await withoutPretenuring(async () => 0); keep((i) => ({ nested: i, list: [i] })); });
phase("after"); keep((i) => ({ after: i, list: [i] }));
phase("end");
`,
  );
  const decisions = new Map<string, number>();
  let current = "";
  for (const line of stdout.split("\n")) {
    const name = /^phase (\w+)$/.exec(line)?.[1];
    if (name !== undefined) current = name;
    else if (/pretenuring: AllocationSite\(.*=>/.test(line)) decisions.set(current, (decisions.get(current) ?? 0) + 1);
  }
  return decisions;
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

describe("a phase run without pretenuring", () => {
  it("has no decision about its literals' objects, and the process decides again after it, however it ended", () => {
    const decisions = pretenuringDecisions([]);
    expect(decisions.get("after") ?? 0).toBeGreaterThan(0);
    for (const inside of ["inside", "thrown", "nested"]) expect(decisions.get(inside) ?? 0, inside).toBe(0);
  });

  it("leaves a process started with its own choice alone", () => {
    const decisions = pretenuringDecisions(["--allocation-site-pretenuring"]);
    expect(decisions.get("inside") ?? 0).toBeGreaterThan(0);
  });
});
