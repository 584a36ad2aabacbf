#!/usr/bin/env node
// `mari eval` on a Parquet dump against its JSONL twin (the target: within 1.5×): the same
// ≥ 1,000,000 structured predictions over the 891-document ContraDoc set as bench/eval.mjs's
// sampling sweep (1,123 runs × 891 cases; `case_id`, `run` INT64, `judgment`, a LIST<INT64>
// `evidence_sentence_ids`, `reasoning`, the way verl and Hugging Face datasets store rollouts),
// written once as JSONL and once as Parquet (snappy, row groups of 100,000 rows, by
// hyparquet-writer), each scored with --workers 1 and 2, REPEAT times interleaved; best of each, with
// wall time, CPU seconds and peak RSS. With the suite's virtualenv (.venv), the same rows are also
// written by pyarrow in its defaults (pq.write_table: one row group of every row, as pandas and HF
// datasets write too), the file whose peak RSS must stay under 512 MB and whose CPU within 1.5× of
// JSONL: Parquet is read a page at a time, and a dump's rows are scored from their decoded columns
// (no JSON line made of each row and scanned again). Needs a build. Writes bench/results/parquet.json.
//   node bench/parquet.mjs [--predictions N] [--repeat K]
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { casesWithSentenceCounts, lcg } from "./lib/dumps.mjs";
import { best, flag, measureChild, ROOT } from "./lib/measure.mjs";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const OUT = join(ROOT, "bench/out");
const JSONL = join(OUT, "parquet-twin.jsonl");
const PARQUET = join(OUT, "parquet-twin.parquet");
const MARI = join(ROOT, "bin/mari.js");
const PREDICTIONS = flag("--predictions", 1_000_000);
const REPEAT = flag("--repeat", 3);
const ROW_GROUP = 100_000;

mkdirSync(OUT, { recursive: true });
const cases = await casesWithSentenceCounts(ROOT, SLICE);
const runs = Math.ceil(PREDICTIONS / cases.length);

// The columns, built once; the JSONL twin is written from them line by line.
const rand = lcg(12345);
const columns = { case_id: [], run: [], judgment: [], evidence_sentence_ids: [], reasoning: [] };
for (let run = 0; run < runs; run++) {
  for (const c of cases) {
    const judgment = rand(10) < 7 ? c.label : !c.label;
    // Mostly valid predictions, about 2% citing a sentence past the end (as bench/eval.mjs).
    const ids = judgment ? [1 + rand(c.n), 1 + rand(c.n + (rand(50) === 0 ? 5 : 0))] : [];
    const a = 1 + rand(c.n);
    columns.case_id.push(c.id);
    columns.run.push(BigInt(run));
    columns.judgment.push(judgment);
    columns.evidence_sentence_ids.push(ids.map(BigInt));
    columns.reasoning.push(
      `Sentence [${a}] says one thing; [${1 + rand(c.n)}]-[${Math.min(c.n, a + 1)}] agree, so the document ${judgment ? "contradicts itself" : "is consistent"}.`,
    );
  }
}
const rows = columns.case_id.length;

const out = createWriteStream(JSONL);
let block = "";
for (let i = 0; i < rows; i++) {
  block += `${JSON.stringify({
    case_id: columns.case_id[i],
    run: Number(columns.run[i]),
    judgment: columns.judgment[i],
    evidence_sentence_ids: columns.evidence_sentence_ids[i].map(Number),
    reasoning: columns.reasoning[i],
  })}\n`;
  if (block.length > 1 << 20) {
    if (!out.write(block)) await once(out, "drain");
    block = "";
  }
}
out.end(block);
await once(out, "finish");

parquetWriteFile({
  filename: PARQUET,
  codec: "SNAPPY",
  rowGroupSize: ROW_GROUP,
  schema: [
    { name: "root", num_children: 5 },
    { name: "case_id", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" },
    { name: "run", type: "INT64", repetition_type: "REQUIRED" },
    { name: "judgment", type: "BOOLEAN", repetition_type: "REQUIRED" },
    { name: "evidence_sentence_ids", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
    { name: "list", repetition_type: "REPEATED", num_children: 1 },
    { name: "element", type: "INT64", repetition_type: "OPTIONAL" },
    { name: "reasoning", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" },
  ],
  columnData: Object.entries(columns).map(([name, data]) => ({ name, data })),
});
const PYARROW = join(OUT, "parquet-twin-pyarrow-default.parquet");
const VENV_PYTHON = join(ROOT, ".venv/bin/python");
const withPyarrow = existsSync(VENV_PYTHON);
if (withPyarrow) {
  const script = "import sys, pyarrow.json as pj, pyarrow.parquet as pq\npq.write_table(pj.read_json(sys.argv[1]), sys.argv[2])";
  const r = spawnSync(VENV_PYTHON, ["-c", script, JSONL, PYARROW], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pyarrow could not write ${PYARROW}: ${r.stderr}`);
}
const bytes = { jsonl: statSync(JSONL).size, parquet: statSync(PARQUET).size, ...(withPyarrow ? { parquet_pyarrow_default: statSync(PYARROW).size } : {}) };
console.log(
  `dump: ${rows} predictions, ${runs} runs × ${cases.length} cases; JSONL ${(bytes.jsonl / 1e6).toFixed(1)} MB, Parquet ${(bytes.parquet / 1e6).toFixed(1)} MB`,
);

const samples = {};
for (let k = 0; k < REPEAT; k++) {
  for (const workers of [1, 2]) {
    for (const [format, dump] of [["jsonl", JSONL], ["parquet", PARQUET], ...(withPyarrow ? [["parquet_pyarrow_default", PYARROW]] : [])]) {
      const args = [MARI, "eval", SLICE, "--predictions", dump, "--out", join(OUT, `parquet-${format}-w${workers}`), "--workers", String(workers)];
      (samples[`${format}_w${workers}`] ??= []).push(await measureChild([...args, "--report", "json", "--progress", "none", "--quiet"]));
    }
  }
}
const results = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, best(v)]));
// Same numbers: the two report.json files agree except paths and hashes.
const comparable = (format) => {
  const r = JSON.parse(readFileSync(join(OUT, `parquet-${format}-w1`, "report.json"), "utf8"));
  for (const key of ["path", "sha256"]) delete r.predictions[key];
  delete r.system.config.predictions;
  delete r.system.config_hash;
  // A commit made while the bench runs changes these, not the numbers.
  delete r.system.git_commit;
  delete r.system.git_dirty;
  delete r.elapsed_seconds;
  r.rejection_examples = r.rejection_examples.map((e) => ({ ...e, where: e.where.replace(/^.*:/, "") }));
  return JSON.stringify(r);
};
const ratio = (w) => results[`parquet_w${w}`].wall_seconds / results[`jsonl_w${w}`].wall_seconds;
const cpuRatio = (format, w) => results[`${format}_w${w}`].cpu_seconds / results[`jsonl_w${w}`].cpu_seconds;
const singleGroupTargets = withPyarrow
  ? Object.fromEntries(
      [1, 2].flatMap((w) => [
        [
          `pyarrow single row group: CPU ≤ 1.5 × jsonl, --workers ${w}`,
          { ratio: Number(cpuRatio("parquet_pyarrow_default", w).toFixed(3)), met: cpuRatio("parquet_pyarrow_default", w) <= 1.5 },
        ],
        [
          `pyarrow single row group: peak RSS < 512 MB, --workers ${w}`,
          { peak_rss_mb: results[`parquet_pyarrow_default_w${w}`].peak_rss_mb, met: results[`parquet_pyarrow_default_w${w}`].peak_rss_mb < 512 },
        ],
      ]),
    )
  : { "pyarrow single row group": "not measured: no .venv" };
const summary = {
  command: "npm run bench -- parquet   (node bench/parquet.mjs)",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model.trim(), total_memory_gb: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version },
  dump: { predictions: rows, runs, cases: cases.length, row_group_rows: ROW_GROUP, codec: "SNAPPY", bytes },
  repeat: REPEAT,
  ...results,
  same_report_minus_paths_and_hashes:
    comparable("jsonl") === comparable("parquet") && (!withPyarrow || comparable("jsonl") === comparable("parquet_pyarrow_default")),
  targets: {
    "parquet wall ≤ 1.5 × jsonl, --workers 1": { ratio: Number(ratio(1).toFixed(3)), met: ratio(1) <= 1.5 },
    "parquet wall ≤ 1.5 × jsonl, --workers 2": { ratio: Number(ratio(2).toFixed(3)), met: ratio(2) <= 1.5 },
    ...singleGroupTargets,
  },
};
writeFileSync(join(ROOT, "bench/results/parquet.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary.targets), "same report:", summary.same_report_minus_paths_and_hashes);
