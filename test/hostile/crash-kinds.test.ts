// Inputs and limits that still crashed. UTF-16 on `classify -`'s stdin killed the
// process with a stack trace (exit 1); a line longer than a JavaScript string can hold
// (0x1fffffe8 characters) ended in exit 3 in the line splitter; `classify` under an
// address-space limit (`ulimit -v`) failed to reserve its 64 duplicate-id tables (exit 3), and
// `eval` under one its first WebAssembly memory (exit 3); a slice, or a sweep's pair corpus, too
// large for the heap ended in V8's own abort (exit 134).
import { spawn } from "node:child_process";
import { readFileSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, memoryTempParent, runMari, tempDir, MARI_COMMAND } from "../support/cli.js";
import { DOC_SLICE, expectInputError, expectNoCrash, firstLines, PAIRS, write } from "./helpers.js";
import { endWithTest } from "../support/children.js";

const tmp = tempDir("mari-crash-kinds-");
const memory = tempDir("mari-crash-kinds-", memoryTempParent());
afterAll(() => {
  tmp.cleanup();
  memory.cleanup();
});

it("classify - with UTF-16 on stdin: exit 2 with the fix, no stack trace", async () => {
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${firstLines(PAIRS, 3).join("\n")}\n`, "utf16le")]);
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = endWithTest(spawn(process.execPath, [...MARI_COMMAND, "classify", "-", "--progress", "none"], { env: childEnv({ NO_COLOR: "1" }) }));
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
    child.stdin.end(utf16);
  });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toBe("mari: <stdin>: UTF-16: convert to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)\n");
});

describe("a line of 256 MiB or more", () => {
  // Sparse files: two real lines, then zero bytes with no newline (nothing on disk) up to 64 KiB past
  // the limit, in memory where possible (reading the holes of a file on disk is most of the run's time).
  const sparse = (name: string, lines: string[]) => {
    const path = write(memory.dir, name, `${lines.join("\n")}\n`);
    truncateSync(path, 256 * 1024 * 1024 + 64 * 1024);
    return path;
  };

  it("in a dump: exit 2 at its line", async () => {
    const dump = sparse("dump.jsonl", [JSON.stringify({ case_id: "x", judgment: "no", evidence_sentence_ids: [] })]);
    const r = await runMari(["eval", DOC_SLICE, "--predictions", dump, "--out", join(tmp.dir, "o"), "--quiet", "--progress", "none"]);
    expectInputError(r, /dump\.jsonl:2: a line of 268435456 bytes or more \(the documented limit\)/);
  });

  it("in a slice: exit 2 at its line", async () => {
    const slice = sparse("pairs.jsonl", firstLines(PAIRS, 2));
    const r = await runMari(["eval", slice, "--out", join(tmp.dir, "p"), "--quiet", "--progress", "none"]);
    expectInputError(r, /pairs\.jsonl:3: a line of 268435456 bytes or more/);
  });
});

it("classify under ulimit -v 4 GB classifies every pair and finds the duplicate", async () => {
  // Enough ids that the tables grow past their first size (64 × 870 ids), so growth by copying runs.
  const n = 56_000;
  const base = firstLines(PAIRS, 20).map((l) => JSON.parse(l) as Record<string, unknown>);
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ ...base[i % base.length], id: `p${i}` }));
  const pairs = write(tmp.dir, "many.jsonl", `${[...lines, JSON.stringify({ ...base[0], id: "p7" })].join("\n")}\n`);
  const r = await runMari(["classify", pairs], { addressSpaceKb: 4_000_000 });
  expectNoCrash(r);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout.trim().split("\n")).toHaveLength(n);
  expect(r.stderr).toMatch(/many\.jsonl:56001: duplicate_id: duplicate id "p7"/);
});

it("a slice too large for Node's heap: exit 2 naming it and how far it got, before V8 runs out", async () => {
  // 100,000 documents of five sentences: about 110 MB of heap read whole, past the 88 MB heap of
  // --max-old-space-size=40, where V8 used to end the process (exit 134, its own stack) mid-read.
  const words = ["river", "council", "budget", "winter", "market", "school", "report", "north", "agreed", "closed"];
  const sentence = (i: number, k: number): string =>
    `${Array.from({ length: 8 }, (_, j) => words[(i * 7 + k * 3 + j * 5) % words.length]).join(" ")} number ${i}-${k}.`;
  const lines = Array.from({ length: 100_000 }, (_, i) =>
    JSON.stringify({
      id: `d${i}`,
      text: [0, 1, 2, 3, 4].map((k) => sentence(i, k)).join(" "),
      label: i % 2 === 0,
      evidence: i % 2 === 0 ? sentence(i, 4) : "",
    }),
  );
  const slice = write(memory.dir, "large-slice.jsonl", `${lines.join("\n")}\n`);
  const dump = write(
    memory.dir,
    "one-line.jsonl",
    `${JSON.stringify({ case_id: "d1", run: 0, judgment: false, evidence_sentence_ids: [], reasoning: "None." })}\n`,
  );
  const args = ["eval", slice, "--predictions", dump, "--out", join(tmp.dir, "large"), "--no-cache", "--quiet", "--progress", "none", "--report", "json"];
  const r = await runMari(args, { env: { NODE_OPTIONS: "--max-old-space-size=40" } });
  expectInputError(
    r,
    /large-slice\.jsonl: slice error: the slice is too large for this process's memory: after [\d,]+ cases read it holds \d+ MB and the heap \d+ MB of the \d+ MB Node may use/,
  );
  expect(r.stderr).toMatch(/NODE_OPTIONS=--max-old-space-size=MB/);
  expect(r.stderr).not.toMatch(/FATAL ERROR|heap out of memory/);
});

it("eval under ulimit -v 4 GB runs (node started again without its WebAssembly trap handler)", async () => {
  // V8 reserves about 10 GB of address space around each WebAssembly memory for its trap handler;
  // under the limit the first module failed to instantiate and every eval ended in exit 3.
  const slice = write(tmp.dir, "limited-slice.jsonl", `${firstLines(DOC_SLICE, 20).join("\n")}\n`);
  const out = join(tmp.dir, "limited");
  const r = await runMari(["eval", slice, "--out", out, "--quiet", "--progress", "none", "--workers", "2", "--report", "json"], { addressSpaceKb: 4_000_000 });
  expectNoCrash(r);
  expect(r.code, r.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
  expect(report.dataset.cases).toBe(20);
  expect(report.metrics.accuracy).toBeGreaterThanOrEqual(0);
});

it("a pair corpus too large for Node's heap: mari sweep exits 2 naming it, before V8 runs out", async () => {
  // 60,000 labelled pairs, which a sweep holds whole: about 90 MB of heap, past a 40 MB old generation.
  const base = firstLines(PAIRS, 20).map((l) => JSON.parse(l) as Record<string, unknown>);
  const lines = Array.from({ length: 60_000 }, (_, i) => {
    const b = base[i % base.length]!;
    return JSON.stringify({ ...b, id: `p${i}`, new: `${String(b["new"])} variant ${i} with a few more words`, old: `${String(b["old"])} variant ${i}` });
  });
  const pairs = write(memory.dir, "large-pairs.jsonl", `${lines.join("\n")}\n`);
  const r = await runMari(["sweep", pairs, "--out", join(tmp.dir, "large-sweep"), "--workers", "1", "--quiet", "--progress", "none"], {
    env: { NODE_OPTIONS: "--max-old-space-size=40" },
  });
  expectInputError(
    r,
    /large-pairs\.jsonl: the pair corpus is too large for this process's memory: after [\d,]+ records read it holds \d+ MB and the heap \d+ MB of the \d+ MB Node may use/,
  );
  expect(r.stderr).not.toMatch(/FATAL ERROR|heap out of memory/);
});
