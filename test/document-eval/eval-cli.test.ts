// Through the built CLI: real files, real child processes; the tests whose subject is the output
// for any worker count and chunk size run the task in this process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { validateReport } from "../../src/report/schema.js";
import { TINY_DUMP, TINY_SLICE, writeJsonl } from "./helpers.js";
import { documentCaseRecords } from "../support/cases.js";

const tmp = tempDir("mari-doc-eval-");
afterAll(() => tmp.cleanup());

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const readLinesOf = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
const CONTRADOC_160 = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

describe("mari eval on a hand-computed three-run slice", () => {
  let report: any;
  let out: string;
  let result: Awaited<ReturnType<typeof runMari>>;
  beforeAll(async () => {
    const slice = writeJsonl(tmp.dir, "tiny.jsonl", TINY_SLICE);
    const dump = writeJsonl(tmp.dir, "tiny-dump.jsonl", TINY_DUMP);
    out = join(tmp.dir, "tiny-out");
    result = await runMari([
      "eval",
      slice,
      "--predictions",
      dump,
      "--out",
      out,
      "--rewards",
      join(out, "rewards.jsonl"),
      "--progress",
      "none",
      "--workers",
      "1",
    ]);
    report = readJson(join(out, "report.json"));
  });

  it("exits 0 and writes every report file", () => {
    expect(result.code).toBe(0);
    expect(validateReport(report)).toEqual([]);
    for (const f of ["report.md", "report.html", "report.junit.xml", "cases.jsonl"]) expect(readFileSync(join(out, f), "utf8").length).toBeGreaterThan(0);
  });

  it("per-run metrics", () => {
    expect(Object.keys(report.runs)).toEqual(["0", "1", "2"]);
    const [r0, r1, r2] = ["0", "1", "2"].map((k) => report.runs[k]);
    expect(r0).toMatchObject({ accuracy: 1, macro_f1: 1, localization_recall: 1, localization_precision: 0.75, exact_localization: 0.5, format_valid_rate: 1 });
    expect(r0.reward_accuracy_mean).toBeCloseTo(5 / 3, 12);
    expect(r0.reference_coverage_mean).toBeCloseTo((1 / 3 + 0 + 2 / 4) / 3, 12);
    expect(r1).toMatchObject({ tp: 1, fp: 1, fn: 1, tn: 0, macro_f1: 0.25, localization_recall: 0.5, localization_precision: 0.5, exact_localization: 0 });
    expect(r1.format_valid_rate).toBeCloseTo(2 / 3, 12);
    expect(r2).toMatchObject({ tp: 1, fp: 0, fn: 1, tn: 1, localization_recall: 0.5, localization_precision: 1, exact_localization: 0.5 });
    expect(r2.macro_f1).toBeCloseTo(2 / 3, 12);
  });

  it("headline = mean over runs, with population spread", () => {
    expect(report.metrics.accuracy).toBeCloseTo(2 / 3, 12);
    expect(report.metrics.macro_f1).toBeCloseTo((1 + 0.25 + 2 / 3) / 3, 12);
    expect(report.spread.accuracy.min).toBeCloseTo(1 / 3, 12);
    expect(report.spread.accuracy.max).toBe(1);
    expect(report.ci.accuracy).toMatchObject({ method: "wilson", n: 9 });
    expect(report.ci.macro_f1).toMatchObject({ method: "bootstrap", seed: 0, resamples: 1000, n: 3 });
  });

  it("SetCons and majority", () => {
    expect(report.setcons.judgment).toBeCloseTo((1 / 2 + 2 / 3 + 0) / 3, 12);
    expect(report.setcons.evidence).toBeCloseTo(2 / 7, 12);
    expect(report.setcons).toMatchObject({ pairs_used: 3, unanimous_rate: 0, flipped_count: 2, flipped_cases: ["A", "B"] });
    expect(report.majority).toMatchObject({ accuracy: 1, tp: 2, tn: 1 });
  });

  it("rejections, breakdowns, cases.jsonl and rewards", async () => {
    expect(report.rejections).toEqual({ missing_prediction: 1 });
    expect(report.breakdowns.scope).toHaveProperty("global");
    expect(report.breakdowns.doc_type.news.cases).toBe(2);
    const cases = await documentCaseRecords(join(out, "cases.jsonl"));
    expect(cases.map((c) => `${c.case_id}/${c.run}`)).toEqual(["A/0", "A/1", "A/2", "B/0", "B/1", "B/2", "C/0", "C/1", "C/2"]);
    expect(cases[7]).toMatchObject({
      case_id: "C",
      run: "1",
      reason: "missing_prediction",
      line: null,
      format_valid: false,
      judgment: false,
      localization_hit: false,
    });
    expect(cases[6]?.fields).toEqual({ extra_field: 7 });
    expect(cases[3]).toMatchObject({ localization_hit: null, evidence_precision: null });
    const rewards = readLinesOf(join(out, "rewards.jsonl"));
    expect(rewards.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rewards[0]).toMatchObject({
      case_id: "A",
      run: "0",
      accuracy: 2,
      reference_coverage: 1 / 3,
      format: 1,
      matched_evidence_count: 1,
      gold_evidence_count: 1,
      format_valid: true,
      reason: null,
    });
  });

  it("gates: pass, fail (exit 1), and a baseline drop", async () => {
    const slice = join(tmp.dir, "tiny.jsonl");
    const dump = join(tmp.dir, "tiny-dump.jsonl");
    const pass = await runMari([
      "eval",
      slice,
      "--predictions",
      dump,
      "--out",
      join(tmp.dir, "g1"),
      "--gate",
      "accuracy>=0.6",
      "--quiet",
      "--progress",
      "none",
    ]);
    expect(pass.code).toBe(0);
    const fail = await runMari(["eval", slice, "--predictions", dump, "--out", join(tmp.dir, "g2"), "--gate", "accuracy>=0.9", "--progress", "none"]);
    expect(fail.code).toBe(1);
    const g2 = readJson(join(tmp.dir, "g2", "report.json"));
    expect(g2.gates[0]).toMatchObject({ metric: "accuracy", passed: false });
    const invalid = await runMari([
      "eval",
      slice,
      "--predictions",
      dump,
      "--out",
      join(tmp.dir, "g4"),
      "--max-invalid-rate",
      "0",
      "--quiet",
      "--progress",
      "none",
    ]);
    expect(invalid.code, invalid.stderr).toBe(1);
    expect(readJson(join(tmp.dir, "g4", "report.json")).gates[0]).toMatchObject({ kind: "max_invalid_rate", value: 1 / 9, passed: false });
    const allowed = await runMari([
      "eval",
      slice,
      "--predictions",
      dump,
      "--out",
      join(tmp.dir, "g5"),
      "--max-invalid-rate",
      "1",
      "--quiet",
      "--progress",
      "none",
    ]);
    expect(allowed.code, allowed.stderr).toBe(0);
    const worse = writeJsonl(
      tmp.dir,
      "worse.jsonl",
      TINY_DUMP.map((l) => ({ ...l, judgment: false, evidence_sentence_ids: [], prediction: undefined })),
    );
    const drop = await runMari([
      "eval",
      slice,
      "--predictions",
      worse,
      "--out",
      join(tmp.dir, "g3"),
      "--baseline",
      join(out, "report.json"),
      "--max-drop",
      "accuracy=0.05",
      "--progress",
      "none",
    ]);
    expect(drop.code).toBe(1);
    const g3 = readJson(join(tmp.dir, "g3", "report.json"));
    expect(g3.baseline).toMatchObject({ matched_cases: 3, units: { current: 9, baseline: 9 }, runs: { current: ["0", "1", "2"], baseline: ["0", "1", "2"] } });
    expect(g3.gates[0].passed).toBe(false);
  });
});

describe("determinism across workers and chunk sizes", () => {
  it("cases.jsonl and report.json (minus timing/system) are byte-identical", async () => {
    const slicePath = CONTRADOC_160;
    const cases = readLinesOf(slicePath);
    const rows: unknown[] = [];
    let k = 0;
    for (let run = 0; run < 4; run++) {
      for (const c of cases) {
        k = (k * 1103515245 + 12345) % 2147483648;
        const judgment = k % 3 !== 0 ? c.label : !c.label;
        if (k % 17 === 0) continue; // some missing predictions
        rows.push({ case_id: c.id, run, judgment, evidence_sentence_ids: judgment ? [1 + (k % 5)] : [], reasoning: `[${1 + (k % 3)}]` });
      }
    }
    rows.push("not json", { case_id: "orphan-1", judgment: true });
    const dump = writeJsonl(tmp.dir, "det-dump.jsonl", rows);
    const outputs: string[] = [];
    // The task in this process, as `--workers W --chunk-size C` give it (the output is the subject).
    for (const [workers, chunk] of [
      [1, undefined],
      [2, undefined],
      [2, 7],
      [1, 1],
      ["auto", undefined],
    ] as const) {
      const out = join(tmp.dir, `det-${workers}-${chunk ?? "d"}`);
      await runTask({ task: "documents", slicePath, dumpPath: dump, bootstrap: 200, workers, ...(chunk ? { chunkLines: chunk } : {}) }, out);
      outputs.push(out);
    }
    const strip = (dir: string) => {
      const rep = readJson(join(dir, "report.json"));
      delete rep.elapsed_seconds;
      delete rep.system;
      return JSON.stringify(rep);
    };
    const first = readFileSync(join(outputs[0]!, "cases.jsonl"), "utf8");
    // One case line per case, then one run line per (case, run).
    expect(first.split("\n").length - 1).toBe(160 + 160 * 4);
    expect(await documentCaseRecords(join(outputs[0]!, "cases.jsonl"))).toHaveLength(160 * 4);
    for (const dir of outputs.slice(1)) {
      expect(readFileSync(join(dir, "cases.jsonl"), "utf8")).toBe(first);
      expect(strip(dir)).toBe(strip(outputs[0]!));
    }
  });
});

describe("the report's rejection examples", () => {
  it("are the first kept lines of each reason in line order, whatever the chunk size and the lines dropped", async () => {
    const slicePath = CONTRADOC_160;
    const cases = readLinesOf(slicePath);
    // Each format-invalid line is written three times: the repeats are duplicate (case, run) lines,
    // which the run table drops. A chunk that spent its examples on them used to leave the report
    // with later lines than the first, depending on where chunks began.
    const rows: unknown[] = [];
    const firstOf: Record<string, number[]> = { bad_judgment: [], evidence_out_of_document: [] };
    for (let run = 0; run < 2; run++) {
      for (const [k, c] of cases.slice(0, 12).entries()) {
        const quoted = k % 2 === 0;
        const row = quoted
          ? { case_id: c.id, run, judgment: `maybe ${k}`, evidence_sentence_ids: [], reasoning: "" }
          : { case_id: c.id, run, judgment: true, evidence_sentence_ids: [9999], reasoning: "" };
        firstOf[quoted ? "bad_judgment" : "evidence_out_of_document"]!.push(rows.length + 1);
        rows.push(row, row, row);
      }
    }
    const dump = writeJsonl(tmp.dir, "examples-dump.jsonl", rows);
    const examplesOf = (dir: string) => readJson(join(dir, "report.json")).rejection_examples as Array<{ where: string; reason: string; message: string }>;
    const seen: string[] = [];
    for (const [workers, chunk] of [
      [1, undefined],
      [1, 1],
      [1, 4],
      [2, 5],
    ] as const) {
      const out = join(tmp.dir, `examples-${workers}-${chunk ?? "d"}`);
      await runTask({ task: "documents", slicePath, dumpPath: dump, bootstrap: 0, workers, ...(chunk ? { chunkLines: chunk } : {}) }, out);
      const examples = examplesOf(out);
      for (const reason of ["bad_judgment", "evidence_out_of_document"]) {
        const own = examples.filter((e) => e.reason === reason);
        expect(
          own.map((e) => Number(e.where.split(":").at(-1))),
          `${reason}, --workers ${workers} --chunk-size ${chunk}`,
        ).toEqual(firstOf[reason]!.slice(0, 5));
      }
      const quoted = examples.filter((e) => e.reason === "bad_judgment");
      expect(quoted.map((e) => e.message)).toEqual([0, 2, 4, 6, 8].map((k) => expect.stringContaining(`"maybe ${k}"`)));
      expect(examples.find((e) => e.reason === "evidence_out_of_document")?.message).toBe("evidence sentence ID is outside the document");
      seen.push(JSON.stringify(examples.map((e) => ({ ...e, where: e.where.split(":").at(-1) }))));
    }
    expect(new Set(seen).size).toBe(1);
  });
});

describe("ranges large enough for written buffers to be reused", () => {
  it("every cases.jsonl line is whole and in place (slice order × run order), for 1 and 2 workers", async () => {
    // 40 cases (5 ranges of 8) × 1,600 runs: each range's cases.jsonl bytes (≈ 94 bytes a run line)
    // are ≈ 1.2 MB, above the 1 MiB from which written range buffers are reused (aggregate.ts).
    const cases = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8")
      .trim()
      .split("\n")
      .slice(0, 40)
      .map((l) => JSON.parse(l));
    const slicePath = writeJsonl(tmp.dir, "reuse-slice.jsonl", cases);
    const RUNS = 1600;
    const rows: unknown[] = [];
    for (let run = 0; run < RUNS; run++) {
      for (const c of cases)
        rows.push({ case_id: c.id, run, judgment: (run + rows.length) % 3 === 0, evidence_sentence_ids: (run + rows.length) % 3 === 0 ? [1] : [] });
    }
    const dump = writeJsonl(tmp.dir, "reuse-dump.jsonl", rows);
    const texts: string[] = [];
    for (const workers of [1, 2]) {
      const out = join(tmp.dir, `reuse-${workers}`);
      await runTask({ task: "documents", slicePath, dumpPath: dump, workers, bootstrap: 0, formats: ["json"] }, out);
      texts.push(readFileSync(join(out, "cases.jsonl"), "utf8"));
    }
    expect(texts[1]).toBe(texts[0]);
    const lines = texts[0]!.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(cases.length * (1 + RUNS));
    const records = await documentCaseRecords(join(tmp.dir, "reuse-1", "cases.jsonl"));
    expect(records.length).toBe(cases.length * RUNS);
    records.forEach((row, k) => {
      const caseIndex = Math.floor(k / RUNS);
      const run = k % RUNS;
      expect([row.case_id, row.run, row.line]).toEqual([cases[caseIndex].id, String(run), run * cases.length + caseIndex + 1]);
    });
  });
});

describe("dump hash", () => {
  it("report.json's predictions.sha256 is the dump file's, with chunked reads and no final newline", async () => {
    const slice = writeJsonl(tmp.dir, "hash-slice.jsonl", TINY_SLICE);
    const dump = join(tmp.dir, "hash-dump.jsonl");
    const text = "\ufeff" + TINY_DUMP.map((row) => JSON.stringify(row)).join("\r\n");
    writeFileSync(dump, text);
    const expected = createHash("sha256").update(readFileSync(dump)).digest("hex");
    for (const [workers, chunkLines] of [
      [1, 3],
      [2, 2],
    ] as const) {
      const out = join(tmp.dir, `hash-${workers}`);
      await runTask({ task: "documents", slicePath: slice, dumpPath: dump, workers, chunkLines, formats: ["json"] }, out);
      expect(readJson(join(out, "report.json")).predictions.sha256).toBe(expected);
    }
  });
});

describe("config file and progress", () => {
  it("gates from mari.config.json apply (flags win); plain progress goes to stderr", async () => {
    const slice = writeJsonl(tmp.dir, "cfg-slice.jsonl", TINY_SLICE);
    const dump = writeJsonl(tmp.dir, "cfg-dump.jsonl", TINY_DUMP);
    const config = join(tmp.dir, "mari.config.json");
    writeFileSync(config, JSON.stringify({ documents: { gate: ["accuracy>=0.9"], bootstrap: 50 } }));
    const fail = await runMari(["eval", slice, "--predictions", dump, "--out", join(tmp.dir, "cfg1"), "--config", config, "--progress", "plain"]);
    expect(fail.code, fail.stderr).toBe(1);
    expect(fail.stderr).toMatch(/score \(MB\)/);
    const report = readJson(join(tmp.dir, "cfg1", "report.json"));
    expect(report.ci.macro_f1.resamples).toBe(50);
    const pass = await runMari([
      "eval",
      slice,
      "--predictions",
      dump,
      "--out",
      join(tmp.dir, "cfg2"),
      "--config",
      config,
      "--gate",
      "accuracy>=0.5",
      "--quiet",
      "--progress",
      "none",
    ]);
    expect(pass.code, pass.stderr).toBe(0);
  });
});
