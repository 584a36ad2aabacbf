// inspect_ai logs (`.eval` zips in the recorder's layout, deflate and zstd members; `.json`) and
// promptfoo outputs (`-o results.json`, `-o results.jsonl`), built in the test in the tools' own
// layouts, scored through the built CLI as prediction dumps: the same report.json as the JSONL dump
// that says the same thing (minus paths and hashes), FILE:N naming the Nth sample or result.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { HAVE_ZSTD } from "../support/parquet.js";
import { writeZip, type ZipMethod } from "../support/zip.js";
// The twin dump says what the live judge would have written for the same answers.
import { failedPrediction, parseJudgeAnswer } from "../../src/judges/answer.js";

const tmp = tempDir("mari-eval-logs-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
type Row = Record<string, unknown>;
const cases = readFileSync(SLICE, "utf8")
  .trimEnd()
  .split("\n")
  .slice(0, 24)
  .map((l) => JSON.parse(l) as { id: string; label: boolean });
const slice = join(tmp.dir, "slice.jsonl");
writeFileSync(slice, `${readFileSync(SLICE, "utf8").split("\n").slice(0, 24).join("\n")}\n`);
const EPOCHS = 2;

/** What the model answered for a case and epoch (k counts all answers), and the dump line that says the same. */
function answer(c: { id: string; label: boolean }, epoch: number, k: number): { content: unknown; line: Row } {
  const judgment = k % 5 !== 0 ? c.label : !c.label;
  const ids = judgment ? [1 + (k % 4), 3] : [];
  const reasoning = `Sentence [${1 + (k % 3)}] against [2].`;
  const json = JSON.stringify({ case_id: c.id, judgment, evidence_sentence_ids: ids, reasoning });
  if (k % 7 === 3) {
    // The tagged layout: a completion.
    const completion = `<think>\n${reasoning}\n</think>\n<answer>\nJudgment: ${judgment ? "yes" : "no"}\nEvidence: [${ids.join(", ")}]\n</answer>`;
    return { content: completion, line: { case_id: c.id, run: String(epoch), completion } };
  }
  if (k % 7 === 5) {
    // Content blocks: the reasoning block becomes the reasoning of a JSON answer without one.
    const bare = JSON.stringify({ case_id: c.id, judgment, evidence_sentence_ids: ids });
    return {
      content: [
        { type: "reasoning", reasoning, signature: "sig", redacted: false },
        { type: "text", text: bare },
      ],
      line: { case_id: c.id, run: String(epoch), judgment, evidence_sentence_ids: ids, reasoning },
    };
  }
  if (k % 11 === 6) {
    // Not JSON: a failed prediction, as the live judge would record it.
    return { content: "I think so.", line: { case_id: c.id, run: String(epoch), ...parseJudgeAnswer("I think so.", c.id) } };
  }
  return { content: json, line: { case_id: c.id, run: String(epoch), judgment, evidence_sentence_ids: ids, reasoning } };
}

/** inspect_ai EvalSamples and the equivalent dump lines, in the order mari reads a .eval: epoch, then member name. */
function inspectSamples(): { samples: Row[]; lines: Row[] } {
  const out: { name: string; sample: Row; line: Row }[] = [];
  let k = 0;
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    for (const c of cases) {
      const { content, line } = answer(c, epoch, k++);
      const long = typeof content === "string" && k % 9 === 0;
      const sample: Row = {
        id: c.id,
        epoch,
        input: "Is this document self-contradictory? …",
        target: c.label ? "yes" : "no",
        messages: [
          { role: "user", content: "Is this document self-contradictory? …", source: "input" },
          { role: "assistant", content: long ? "attachment://a1b2" : content, source: "generate" },
        ],
        output: {
          model: "gpt-4o-mini",
          choices: [{ message: { role: "assistant", content: long ? "attachment://a1b2" : content, source: "generate" }, stop_reason: "stop" }],
          usage: { input_tokens: 300, output_tokens: 40, total_tokens: 340 },
        },
        scores: { match: { value: "C", answer: "yes" } },
        metadata: { doc_id: c.id },
        store: {},
        events: [],
        model_usage: {},
        attachments: long ? { a1b2: content } : {},
      };
      out.push({ name: `samples/${c.id}_epoch_${epoch}.json`, sample, line });
    }
  }
  // A sample that failed: the run is there, its prediction format-invalid.
  out[4]!.sample.error = { message: "RateLimitError: 429", traceback: "", traceback_ansi: "" };
  out[4]!.line = { case_id: cases[4]!.id, run: "1", ...failedPrediction("request_failed", "the sample ended in an error: RateLimitError: 429") };
  out.sort((a, b) => Number(a.sample.epoch) - Number(b.sample.epoch) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { samples: out.map((o) => ({ ...o.sample, name: o.name })), lines: out.map((o) => o.line) };
}

const header = {
  version: 2,
  status: "success",
  eval: {
    eval_id: "e1",
    run_id: "r1",
    created: "2026-11-30T10:00:00+00:00",
    task: "contradoc",
    task_id: "t1",
    task_version: 0,
    dataset: { name: "contradoc", samples: 24 },
    model: "openai/gpt-4o-mini",
    config: { epochs: EPOCHS },
  },
  plan: { name: "plan", steps: [{ solver: "generate", params: {} }] },
  results: { total_samples: 48, completed_samples: 48, scores: [] },
  stats: { started_at: "2026-11-30T10:00:00+00:00", completed_at: "2026-11-30T10:05:00+00:00", model_usage: {} },
};

/** report.json without what names or hashes the input files. */
function comparable(dir: string): unknown {
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  delete report.predictions.path;
  delete report.predictions.sha256;
  delete report.system.config.predictions;
  delete report.system.config.id_field;
  delete report.system.config_hash;
  delete report.elapsed_seconds;
  report.rejection_examples = report.rejection_examples.map((e: { where: string }) => ({ ...e, where: e.where.replace(/^.*:/, "") }));
  return report;
}

let n = 0;
/** `mari eval SLICE --predictions DUMP [--id-field F]`, in this process: the reports are compared. */
async function evalDump(dump: string, idField?: string) {
  const out = join(tmp.dir, `out-${n++}`);
  await runTask({ task: "documents", slicePath: slice, dumpPath: dump, formats: ["json", "html"], ...(idField ? { idField } : {}) }, out);
  return out;
}

async function twinOf(lines: Row[]): Promise<string> {
  const path = join(tmp.dir, `twin-${n++}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return evalDump(path);
}

describe("inspect_ai logs as dumps", () => {
  const { samples, lines } = inspectSamples();
  const methods: [string, ZipMethod][] = [
    ["deflate", 8],
    ["zstd", 93],
  ];
  for (const [label, method] of methods) {
    it.skipIf(method === 93 && !HAVE_ZSTD)(`.eval with ${label} members (zstd needs the zstd program to write): scored as its JSONL twin`, async () => {
      const path = join(tmp.dir, `log-${label}.eval`);
      const members = [
        { name: "_journal/start.json", text: JSON.stringify({ version: 2, eval: header.eval, plan: header.plan }) },
        // Written in completion order, not sorted: mari orders them itself.
        ...[...samples].reverse().map(({ name, ...s }) => ({ name: name as string, text: JSON.stringify(s) })),
        { name: "_journal/summaries/1.json", text: "[]" },
        { name: "summaries.json", text: "[]" },
        { name: "header.json", text: JSON.stringify(header) },
      ];
      writeZip(path, members, method);
      const out = await evalDump(path);
      expect(comparable(out)).toEqual(comparable(await twinOf(lines)));
      const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      expect(report.predictions.runs).toEqual(["1", "2"]);
      expect(report.predictions.lines).toBe(48);
      expect(readFileSync(join(out, "report.html"), "utf8")).toContain("against [2].");
    });
  }

  it(".json (pretty-printed EvalLog): the same, and --id-field reads the id from the sample's metadata", async () => {
    const path = join(tmp.dir, "log.json");
    writeFileSync(path, JSON.stringify({ ...header, samples: samples.map(({ name: _name, ...s }) => ({ ...s, id: `sample-${String(s.id)}` })) }, null, 2));
    const out = await evalDump(path, "doc_id");
    expect(comparable(out)).toEqual(comparable(await twinOf(lines)));
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).system.config.id_field).toBe("doc_id");
  });

  it("a damaged .eval is an input error naming the file", async () => {
    const path = join(tmp.dir, "cut.eval");
    writeZip(path, [{ name: "header.json", text: JSON.stringify(header) }], 8);
    writeFileSync(path, readFileSync(path).subarray(0, 40));
    const r = await runMari(["eval", slice, "--predictions", path, "--out", join(tmp.dir, "cut-out"), "--quiet"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${path}: starts like a zip archive (an inspect_ai .eval log) but cannot be read as one`);
  });
});

describe("promptfoo outputs as dumps", () => {
  /** EvaluateResults of `promptfoo eval --repeat 2`: testIdx counts over repeats, the repeat is not recorded. */
  function results(): { results: Row[]; lines: Row[] } {
    const out: Row[] = [];
    const twin: Row[] = [];
    let testIdx = 0;
    let k = 0;
    for (let repeat = 0; repeat < 2; repeat++) {
      for (const c of cases) {
        const { content, line } = answer(c, repeat, k++);
        const vars = { doc_id: c.id, document: "[1] …" };
        out.push({
          id: `r-${testIdx}`,
          promptIdx: 0,
          testIdx: testIdx++,
          testCase: { vars, assert: [] },
          promptId: "p1",
          provider: { id: "openai:chat:gpt-4o-mini", label: "" },
          prompt: { raw: "…", label: "judge" },
          vars,
          response: { output: Array.isArray(content) ? content : content, tokenUsage: { total: 10 } },
          failureReason: 0,
          success: true,
          score: 1,
          latencyMs: 100,
          namedScores: {},
        });
        twin.push({ ...line, run: String(repeat) });
      }
    }
    out[7]!.error = "API error: 500";
    out[7]!.response = { error: "API error: 500" };
    twin[7] = { case_id: cases[7]!.id, run: "0", ...failedPrediction("request_failed", "the provider call failed: API error: 500") };
    return { results: out, lines: twin };
  }

  it("-o results.json (version 3 summary) with --id-field: repeats become runs 0 and 1", async () => {
    const { results: rs, lines } = results();
    const path = join(tmp.dir, "results.json");
    writeFileSync(
      path,
      JSON.stringify({ evalId: "eval-1", results: { version: 3, timestamp: "2026-11-30", prompts: [], results: rs, stats: {} }, config: {} }, null, 2),
    );
    const out = await evalDump(path, "doc_id");
    expect(comparable(out)).toEqual(comparable(await twinOf(lines)));
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).predictions.runs).toEqual(["0", "1"]);
  });

  it("-o results.jsonl, shuffled, with a malformed line: the same runs, the bad line rejected at its line", async () => {
    const { results: rs, lines } = results();
    const order = rs.map((_, i) => (i * 17) % rs.length);
    const path = join(tmp.dir, "results.jsonl");
    writeFileSync(path, `${order.map((i) => JSON.stringify(rs[i])).join("\n")}\n{"testIdx": 3, broken\n`);
    const out = join(tmp.dir, "jsonl-out");
    const r = await runMari(["eval", slice, "--predictions", path, "--out", out, "--quiet", "--report", "json", "--id-field", "doc_id"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    const twin = JSON.parse(readFileSync(join(await twinOf(lines), "report.json"), "utf8"));
    expect(report.metrics).toEqual(twin.metrics);
    expect(report.setcons).toEqual(twin.setcons);
    expect(report.rejections).toEqual({ ...twin.rejections, malformed_json: 1 });
    expect(report.rejection_examples.find((e: { reason: string }) => e.reason === "malformed_json").where).toBe(`${path}:${rs.length + 1}`);
  });
});

describe("promptfoo case ids without --id-field", () => {
  it("the var case_id, else id, names the case; a result without either is a bad_case_id line", async () => {
    const make = (testIdx: number, vars: Row, output: string) => ({
      promptIdx: 0,
      testIdx,
      testCase: { vars },
      provider: { id: "echo" },
      vars,
      response: { output },
    });
    const ok = (id: string) => JSON.stringify({ case_id: id, judgment: false, evidence_sentence_ids: [], reasoning: "" });
    const path = join(tmp.dir, "ids.jsonl");
    const rows = [make(0, { case_id: cases[0]!.id }, ok(cases[0]!.id)), make(1, { id: cases[1]!.id }, ok(cases[1]!.id)), make(2, { other: "x" }, ok("x"))];
    writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const out = join(tmp.dir, "ids-out");
    const r = await runMari(["eval", slice, "--predictions", path, "--out", out, "--quiet", "--report", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.rejections.bad_case_id).toBe(1);
    expect(report.rejection_examples.find((e: { reason: string }) => e.reason === "bad_case_id").where).toBe(`${path}:3`);
    expect(report.rejections.missing_prediction).toBe(cases.length - 2);
  });
});

it("--id-field on a JSONL dump or without --predictions is refused, not ignored", async () => {
  const dump = join(tmp.dir, "plain.jsonl");
  writeFileSync(dump, `${JSON.stringify({ case_id: cases[0]!.id, judgment: false, evidence_sentence_ids: [] })}\n`);
  for (const extra of [["--predictions", dump], []]) {
    const r = await runMari(["eval", slice, ...extra, "--id-field", "doc_id", "--out", join(tmp.dir, `refused-${extra.length}`), "--quiet"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("--id-field applies to an inspect_ai log, a promptfoo output or an lm-eval samples file");
  }
});
