#!/usr/bin/env node
// Batch-inference files at scale: `mari predict --batch-requests` for the 891-document ContraDoc
// set × enough runs for ~1,000,000 request lines (size of the file, time to build it), then a
// 1,000,000-line batch output file (OpenAI Batch API / vLLM run_batch format, generated here with a
// deterministic mix of good, malformed, failed and truncated answers) read by `mari eval`
// (--workers 1 and 2) and by `mari predict --batch-results` (into a dump). Child processes measured
// with bench/lib/measure.mjs (wall, CPU, peak RSS, load). Needs a build. Writes
// bench/results/batch.json; the multi-GB request file is deleted after it is measured.
//   node bench/batch.mjs [--lines N] [--repeat K]
import { createWriteStream, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { best, flag, measureChild, ROOT } from "./lib/measure.mjs";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const OUT = join(ROOT, "bench/out");
const REQUESTS = join(OUT, "batch-requests.jsonl");
const OUTPUT = join(OUT, "batch-output.jsonl");
const MARI = join(ROOT, "bin/mari.js");
const LINES = flag("--lines", 1_000_000);
const REPEAT = flag("--repeat", 1);

mkdirSync(OUT, { recursive: true });
const cases = readFileSync(SLICE, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const runs = Math.ceil(LINES / cases.length);

// 1. The request file.
const build = [];
let requestBytes = 0;
for (let k = 0; k < REPEAT; k++) {
  build.push(await measureChild([MARI, "predict", SLICE, "--judge", "openai", "--model", "bench-model", "--runs", String(runs), "--batch-requests", REQUESTS]));
  requestBytes = statSync(REQUESTS).size;
  rmSync(REQUESTS, { force: true });
}
console.log(`requests: ${runs * cases.length} lines, ${(requestBytes / 1e9).toFixed(2)} GB, best ${best(build).wall_seconds.toFixed(1)} s`);

// 2. A batch output file of the same (case, run) lines.
let state = 2024;
const rand = (n) => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return (state >>> 8) % n;
};
const mix = { answers: 0, malformed: 0, failed: 0, truncated: 0 };
async function generate() {
  const out = createWriteStream(OUTPUT);
  let i = 0;
  for (let run = 0; run < runs; run++) {
    let block = "";
    for (const c of cases) {
      const customId = JSON.stringify([c.id, run]);
      const roll = rand(100);
      let response;
      if (roll < 2) {
        mix.failed++;
        response = { status_code: 500, request_id: `req-${i}`, body: { error: { message: "internal error" } } };
      } else {
        const judgment = rand(10) < 7 ? c.label : !c.label;
        const answer = {
          case_id: c.id,
          judgment,
          evidence_sentence_ids: judgment ? [1 + rand(8)] : [],
          reasoning: judgment ? "Sentence [1] contradicts a later one." : "No conflict.",
        };
        let content = JSON.stringify(answer);
        let finish = "stop";
        if (roll < 3) {
          mix.truncated++;
          content = content.slice(0, 30);
          finish = "length";
        } else if (roll < 6) {
          mix.malformed++;
          content = `The answer is ${judgment ? "yes" : "no"}.`;
        } else mix.answers++;
        response = {
          status_code: 200,
          request_id: `req-${i}`,
          body: {
            id: `chatcmpl-${i}`,
            object: "chat.completion",
            created: 1700000000,
            model: "bench-model",
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finish }],
            usage: { prompt_tokens: 600, completion_tokens: 40, total_tokens: 640 },
          },
        };
      }
      block += `${JSON.stringify({ id: `batch_req_${i}`, custom_id: customId, response, error: null })}\n`;
      i++;
    }
    if (!out.write(block)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return i;
}
const outputLines = await generate();
const outputBytes = statSync(OUTPUT).size;
console.log(`output: ${outputLines} lines, ${(outputBytes / 1e6).toFixed(1)} MB`);

// 3. Reading it.
const results = { eval_workers_1: [], eval_workers_2: [], batch_results_to_dump: [] };
for (let k = 0; k < REPEAT; k++) {
  for (const workers of [1, 2]) {
    results[`eval_workers_${workers}`].push(
      await measureChild([
        MARI,
        "eval",
        SLICE,
        "--predictions",
        OUTPUT,
        "--out",
        join(OUT, `batch-eval-w${workers}`),
        "--workers",
        String(workers),
        "--progress",
        "none",
        "--quiet",
        "--report",
        "json",
      ]),
    );
  }
  results.batch_results_to_dump.push(
    await measureChild([
      MARI,
      "predict",
      SLICE,
      "--judge",
      "openai",
      "--runs",
      String(runs),
      "--batch-results",
      OUTPUT,
      "--out",
      join(OUT, "batch-dump.jsonl"),
    ]),
  );
}
const report = JSON.parse(readFileSync(join(OUT, "batch-eval-w1/report.json"), "utf8"));
const summary = {
  command: "npm run bench -- batch   (node bench/batch.mjs)",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, total_memory_gb: Number((totalmem() / 2 ** 30).toFixed(1)), node: process.version },
  repeat: REPEAT,
  requests: {
    lines: runs * cases.length,
    runs,
    cases: cases.length,
    bytes: requestBytes,
    bytes_per_line: Math.round(requestBytes / (runs * cases.length)),
    build: best(build),
  },
  output: { lines: outputLines, bytes: outputBytes, mix },
  read: {
    eval_workers_1: best(results.eval_workers_1),
    eval_workers_2: best(results.eval_workers_2),
    batch_results_to_dump: best(results.batch_results_to_dump),
  },
  eval_rejections: report.rejections,
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/batch.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
if (process.argv.includes("--clean")) rmSync(OUT, { recursive: true, force: true });
