// The fuzz test: seeded mutants of every input kind (dump lines, pair records,
// classify input, evidence facts, document slices, batch output files, config files, the reports
// `mari diff` reads, forged shard reports), many mutants per child process or in this process.
// Whatever the input: no exit 3, no stack trace, and every line accounted for exactly once
// (scored, rejected with a reason, or an orphan). Deterministic: the seed is fixed.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { documentCaseRecords } from "../support/cases.js";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { prng } from "../../bench/lib/log-fuzz.mjs";
import { DOC_SLICE, dumpLine, EVIDENCE_DOCS, EVIDENCE_FACTS, expectNoCrash, firstLines, PAIRS } from "./helpers.js";
import { evaluateDocuments, InputError, runDocumentMerge } from "../../src/index.js";
import { loadMariConfig } from "../../src/gates/run-config.js";
import { diffReports } from "../../src/tasks/diff/run.js";

const tmp = tempDir("mari-fuzz-");
afterAll(() => tmp.cleanup());

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

// The four input types the third audit added. Batch output files go through the CLI
// (`eval` and `predict --batch-results`); config files, the reports `mari diff` reads and forged
// shard reports go through the library entry points in this process (no process boundary is at
// stake there, and hundreds of mutants a second fit the suite's budget): whatever the input, the
// result is a report or an InputError, never any other exception.

/** A structural mutant of a JSON value: a random member or item replaced, added or removed. */
function mutateValue(value: unknown, random: () => number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const hostile = () => JSON.parse(pick(HOSTILE_VALUES.filter((v) => v !== "NaN"))) as unknown;
  const copy = structuredClone(value);
  const containers: Array<Record<string, unknown> | unknown[]> = [];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== "object") return;
    containers.push(v as Record<string, unknown>);
    for (const child of Object.values(v)) walk(child);
  };
  walk(copy);
  if (containers.length === 0) return hostile();
  const target = pick(containers);
  const keys = Object.keys(target);
  const key = keys.length > 0 ? pick(keys) : "0";
  switch (Math.floor(random() * 4)) {
    case 0:
      (target as Record<string, unknown>)[key] = hostile();
      break;
    case 1:
      Object.defineProperty(target, pick(HOSTILE_KEYS), { value: hostile(), enumerable: true, writable: true, configurable: true });
      break;
    case 2:
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete (target as Record<string, unknown>)[key];
      break;
    default:
      (target as Record<string, unknown>)[key] = typeof (target as Record<string, unknown>)[key] === "number" ? -1 : "x";
  }
  return copy;
}

/** A whole-file mutant: structural most of the time, else a byte-level one of the compact text. */
function mutateFile(value: unknown, random: () => number): Buffer {
  const text = JSON.stringify(random() < 0.7 ? mutateValue(value, random) : value);
  return random() < 0.4 ? mutate(text, random) : Buffer.from(text);
}

/** Runs `attempt`; the only failure allowed is an InputError (exit 2 in the CLI). */
async function reportOrInputError(attempt: () => Promise<unknown>): Promise<"ok" | "input-error"> {
  try {
    await attempt();
    return "ok";
  } catch (err) {
    expect(err, (err as Error)?.stack).toBeInstanceOf(InputError);
    return "input-error";
  }
}

describe("fuzz: batch output, config, diff inputs and forged shards", () => {
  const slice = firstLines(DOC_SLICE, 30);
  const records = slice.map((l) => JSON.parse(l) as { id: string; label: boolean });
  const slicePath = join(tmp.dir, "r3-slice.jsonl");
  writeFileSync(slicePath, `${slice.join("\n")}\n`);
  const RUNS = 2;
  const batchLine = (caseId: string, run: number, i: number): Record<string, unknown> => {
    const answer = JSON.stringify({ case_id: caseId, judgment: i % 2 === 0, evidence_sentence_ids: i % 2 === 0 ? [1] : [] });
    return i % 9 === 4
      ? { id: `b${i}`, custom_id: JSON.stringify([caseId, run]), response: null, error: { code: "server_error", message: "retry" } }
      : {
          id: `b${i}`,
          custom_id: JSON.stringify([caseId, run]),
          response: { status_code: 200, body: { choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }] } },
          error: null,
        };
  };
  const batchBase = records.flatMap((rec, i) => Array.from({ length: RUNS }, (_, run) => batchLine(rec.id, run, i * RUNS + run)));

  it("batch output lines read by eval: every line scored, rejected or an orphan", async () => {
    const output = fuzzFile(
      "r3-batch.jsonl",
      batchBase.map((l) => JSON.stringify(l)),
      CASES_PER_FILE,
      21,
    );
    const out = join(tmp.dir, "r3-batch-out");
    const r = await runMari(["eval", slicePath, "--predictions", output.path, "--out", out, ...q]);
    expectNoCrash(r);
    expect([0, 1], r.stderr).toContain(r.code);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    const kept = (await documentCaseRecords(join(out, "cases.jsonl"))).filter((l) => l["line"] !== null).length;
    expect(sum(report.rejections, LINE_CODES) + report.orphans.count + kept).toBe(output.lines);
  });

  it.each([22, 23, 24, 25])("batch output files read by predict --batch-results (seed %i): a dump whose counts add up, or exit 2", async (seed) => {
    const random = prng(seed);
    const lines = Array.from({ length: 200 }, () => {
      const base = batchBase[Math.floor(random() * batchBase.length)]!;
      return JSON.stringify(random() < 0.04 ? mutateValue(base, random) : base);
    });
    const path = join(tmp.dir, `r3-results-${seed}.jsonl`);
    writeFileSync(path, `${lines.join("\n")}\n`);
    const dump = join(tmp.dir, `r3-results-dump-${seed}.jsonl`);
    const r = await runMari(["predict", slicePath, "--judge", "openai", "--runs", String(RUNS), "--batch-results", path, "--out", dump], {
      env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
    });
    expectNoCrash(r);
    expect([0, 2], r.stderr).toContain(r.code);
    if (r.code === 0) {
      const batch = JSON.parse(readFileSync(`${dump}.meta.json`, "utf8")).batch;
      expect(batch.predictions + batch.missing).toBe(records.length * RUNS);
      expect(batch.predictions + batch.orphans + batch.duplicates).toBe(lines.length);
    } else {
      expect(r.stderr).toMatch(/^mari: .*r3-results-\d+\.jsonl(:\d+)?: /m);
    }
  });

  it("config files: a config or an InputError naming the file (400 mutants)", async () => {
    const base = {
      $schema: "./schema/config.schema.json",
      out: "o",
      report: ["json", "md"],
      workers: 2,
      documents: { gate: ["accuracy>=0.5"], max_drop: { macro_f1: 0.02 }, max_invalid_rate: "5%", seed: 3, bootstrap: 100 },
      pairs: { gate: "restatement_to_update_rate<=0.1", costs: "costs.json" },
      evidence: { max_invalid_rate: 2 },
    };
    const random = prng(26);
    const outcomes = { ok: 0, "input-error": 0 };
    for (let i = 0; i < 400; i++) {
      const path = join(tmp.dir, `r3-config-${i % 8}.json`);
      writeFileSync(path, mutateFile(base, random));
      outcomes[await reportOrInputError(() => loadMariConfig(path, tmp.dir, "documents"))]++;
    }
    // Both outcomes occur: the mutants are neither all harmless nor all fatal.
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes["input-error"]).toBeGreaterThan(0);
  });

  describe("reports read back", () => {
    const dump = join(tmp.dir, "r3-dump.jsonl");
    const dumpLines = records.flatMap((rec, i) => [
      dumpLine(rec, { run: 0 }),
      dumpLine(rec, { run: 1, judgment: i % 3 === 0 ? "yes" : "no", evidence_sentence_ids: i % 3 === 0 ? [1] : [] }),
    ]);
    const shardDirs = [0, 1].map((i) => join(tmp.dir, `r3-shard-${i}`));
    const whole = join(tmp.dir, "r3-whole");

    it("diff inputs (report.json and cases.jsonl mutants): a diff or an InputError (150 mutants)", async () => {
      writeFileSync(dump, `${dumpLines.join("\n")}\n`);
      await evaluateDocuments({ slicePath, dumpPath: dump, outDir: whole, formats: ["json"], workers: 1, bootstrap: 20 });
      const report = JSON.parse(readFileSync(join(whole, "report.json"), "utf8"));
      const cases = readFileSync(join(whole, "cases.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l !== "");
      const random = prng(27);
      for (let i = 0; i < 150; i++) {
        const dir = join(tmp.dir, `r3-diff-${i % 6}`);
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir);
        const mutatedCases = random() < 0.5 ? cases.map((l) => (random() < 0.05 ? mutate(l, random).toString("latin1") : l)) : cases;
        writeFileSync(join(dir, "cases.jsonl"), `${mutatedCases.join("\n")}\n`);
        writeFileSync(join(dir, "report.json"), random() < 0.6 ? mutateFile(report, random) : JSON.stringify(report));
        await reportOrInputError(() => diffReports({ oldPath: whole, newPath: dir, bootstrap: 10, explorer: false }));
      }
    });

    it("forged shard reports: a merged report whose lines add up, or an InputError (100 mutants)", async () => {
      for (const [i, dir] of shardDirs.entries()) {
        await evaluateDocuments({ slicePath, dumpPath: dump, outDir: dir, formats: ["json"], workers: 1, bootstrap: 20, shard: { index: i, count: 2 } });
      }
      const second = JSON.parse(readFileSync(join(shardDirs[1]!, "report.json"), "utf8"));
      const random = prng(28);
      let merged = 0;
      for (let i = 0; i < 100; i++) {
        const forged = join(tmp.dir, `r3-forged-${i % 5}`);
        rmSync(forged, { recursive: true, force: true });
        cpSync(shardDirs[1]!, forged, { recursive: true });
        // Mutate the shard block most of the time: that is what the merge takes on trust.
        const roll = random();
        // A third: counts forged with plausible values (valid types, so only the accounting can tell).
        const count = Math.floor(random() * 4);
        const bytes =
          roll < 0.3
            ? JSON.stringify({ ...second, shard: mutateValue(second.shard, random) })
            : roll < 0.6
              ? JSON.stringify(
                  random() < 0.5
                    ? { ...second, shard: { ...second.shard, line_rejections: { malformed_json: count } } }
                    : { ...second, orphans: { ...second.orphans, count } },
                )
              : mutateFile(second, random);
        writeFileSync(join(forged, "report.json"), bytes);
        const outDir = join(tmp.dir, `r3-merged-${i % 5}`);
        const outcome = await reportOrInputError(() =>
          runDocumentMerge({ reportPaths: [join(shardDirs[0]!, "report.json"), join(forged, "report.json")], outDir, formats: ["json"] }),
        );
        if (outcome === "ok") {
          merged++;
          const report = JSON.parse(readFileSync(join(outDir, "report.json"), "utf8"));
          const kept = (await documentCaseRecords(join(outDir, "cases.jsonl"))).filter((l) => l["line"] !== null).length;
          expect(sum(report.rejections, LINE_CODES) + report.orphans.count + kept).toBe(report.predictions.lines);
        }
      }
      expect(merged).toBeGreaterThan(0);
    });
  });
});
