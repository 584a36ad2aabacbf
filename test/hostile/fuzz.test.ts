// Issue 11, the fuzz test: seeded mutants of every input kind (dump lines, pair records, classify
// input, evidence facts, document slices) run through the real CLI, many mutants per child process.
// Whatever the input: no exit 3, no stack trace, and every line accounted for exactly once
// (scored, rejected with a reason, or an orphan). Deterministic: the seed is fixed.
import { readFileSync, writeFileSync } from "node:fs";
import { documentCaseRecords } from "../support/cases.js";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, dumpLine, EVIDENCE_DOCS, EVIDENCE_FACTS, expectNoCrash, firstLines, PAIRS } from "./helpers.js";

const tmp = tempDir("mari-fuzz-");
afterAll(() => tmp.cleanup());

/** Mulberry32: a small seeded generator, so every run of the suite sees the same mutants. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const HOSTILE_VALUES = [
  "NaN",
  "1e400",
  "-0",
  "9007199254740993",
  "9007199254740992",
  '"\\ud800"',
  '"\\udfff x"',
  "null",
  "[]",
  "{}",
  "true",
  '""',
  `${"[".repeat(100)}${"]".repeat(100)}`,
  `"${"x".repeat(5000)}"`,
  "-1",
  "1.5",
  '"[1]"',
  '["1", 2.0]',
  '{"__proto__": 1}',
];
const HOSTILE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "", "case_id", "id", "run", "new", "old", "kind", "judgment"];

/** One mutant of a JSON line (as bytes): the kinds the audit used. */
function mutate(line: string, random: () => number): Buffer {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const at = () => Math.floor(random() * (line.length + 1));
  switch (Math.floor(random() * 10)) {
    case 0: {
      const bytes = Buffer.from(line);
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      return bytes;
    }
    case 1:
      return Buffer.from(line.slice(0, at()));
    case 2: // a value swapped for a hostile one
      return Buffer.from(line.replace(/: ?("(?:[^"\\]|\\.)*"|[-\d.eE+]+|true|false|null|\[[^\]]*\])/, `: ${pick(HOSTILE_VALUES)}`));
    case 3: // a key renamed
      return Buffer.from(line.replace(/"([a-z_]+)":/, `"${pick(HOSTILE_KEYS)}":`));
    case 4: // a key added
      return Buffer.from(line.replace(/^\{/, `{"${pick(HOSTILE_KEYS)}": ${pick(HOSTILE_VALUES)}, `));
    case 5:
      return Buffer.from(`${line}\r`);
    case 6:
      return Buffer.from(pick(["", "   ", "null", "[1]", "7", '"x"', "{", "}", "\uFEFF{}"]));
    case 7: // invalid UTF-8 inside a string
      return Buffer.concat([Buffer.from(line.slice(0, at())), Buffer.from([pick([0xff, 0xc3, 0xed, 0x80])]), Buffer.from(line.slice(at()))]);
    default:
      return Buffer.from(line);
  }
}

/** A file of `count` lines, each a base line or a mutant of one; returns its path and line count. */
function fuzzFile(name: string, base: readonly string[], count: number, seed: number): { path: string; lines: number } {
  const random = prng(seed);
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const line = base[Math.floor(random() * base.length)]!;
    parts.push(random() < 0.6 ? mutate(line, random) : Buffer.from(line), Buffer.from("\n"));
  }
  const bytes = Buffer.concat(parts);
  const path = join(tmp.dir, name);
  writeFileSync(path, bytes);
  let lines = 0;
  for (const b of bytes) if (b === 0x0a) lines++;
  return { path, lines };
}

const sum = (counts: Record<string, number>, codes: readonly string[]) => codes.reduce((a, code) => a + (counts[code] ?? 0), 0);
/** The line-level rejections of a dump (the case-level reasons of kept lines are counted apart). */
const LINE_CODES = ["invalid_utf8", "blank_line", "malformed_json", "not_an_object", "bad_case_id", "bad_run_key", "duplicate_prediction"];
const q = ["--quiet", "--progress", "none", "--workers", "1", "--report", "json"];
const CASES_PER_FILE = 1000;

describe("fuzz: seeded mutants through the real CLI", () => {
  const slice = firstLines(DOC_SLICE, 40);
  const records = slice.map((l) => JSON.parse(l) as { id: string });
  const dumpBase = records.flatMap((rec, i) => [dumpLine(rec, { run: i % 3 }), dumpLine(rec, { run: "a", judgment: "yes", evidence_sentence_ids: [1] })]);
  const slicePath = join(tmp.dir, "slice.jsonl");
  writeFileSync(slicePath, `${slice.join("\n")}\n`);

  it.each([1, 2])("dump lines (seed %i): every line scored, rejected or an orphan", async (seed) => {
    const dump = fuzzFile(`dump-${seed}.jsonl`, dumpBase, CASES_PER_FILE, seed);
    const out = join(tmp.dir, `dump-out-${seed}`);
    const r = await runMari(["eval", slicePath, "--predictions", dump.path, "--out", out, ...q]);
    expectNoCrash(r);
    expect([0, 1], r.stderr).toContain(r.code);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    const kept = (await documentCaseRecords(join(out, "cases.jsonl"))).filter((l) => l["line"] !== null).length;
    expect(report.predictions.lines).toBe(dump.lines);
    expect(sum(report.rejections, LINE_CODES) + report.orphans.count + kept, JSON.stringify(report.rejections)).toBe(dump.lines);
  });

  it.each([3, 4])("pair records (seed %i): eval and classify account for every line", async (seed) => {
    const pairs = fuzzFile(`pairs-${seed}.jsonl`, firstLines(PAIRS, 50), CASES_PER_FILE, seed);
    const out = join(tmp.dir, `pairs-out-${seed}`);
    const e = await runMari(["eval", pairs.path, "--out", out, ...q]);
    expectNoCrash(e);
    if (e.code !== 2) {
      const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      if (report.task === "pairs") expect(report.pairs.records).toBe(report.pairs.usable + report.pairs.rejected);
    }
    const c = await runMari(["classify", pairs.path]);
    expectNoCrash(c);
    const verdicts = c.stdout.trim() === "" ? 0 : c.stdout.trim().split("\n").length;
    const rejected = Number(/(\d+) records? rejected/.exec(c.stderr)?.[1] ?? 0);
    expect(verdicts + rejected, c.stderr.slice(-500)).toBe(pairs.lines);
  });

  it("evidence facts lines: no crash", async () => {
    const facts = fuzzFile("facts.jsonl", firstLines(EVIDENCE_FACTS, 20), CASES_PER_FILE / 2, 5);
    const r = await runMari(["evidence", EVIDENCE_DOCS, "--facts", facts.path, "--out", join(tmp.dir, "ev-out"), "--quiet", "--progress", "none"]);
    expectNoCrash(r);
  });

  it.each([6, 7, 8])("document slices (seed %i): an input error or a report, never a crash", async (seed) => {
    const mutant = fuzzFile(`slice-${seed}.jsonl`, slice, 40, seed);
    const r = await runMari(["eval", mutant.path, "--out", join(tmp.dir, `slice-out-${seed}`), ...q]);
    expectNoCrash(r);
    if (r.code === 2) expect(r.stderr).toMatch(/slice-\d\.jsonl(:\d+)?: /);
  });
});
