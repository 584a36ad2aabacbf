#!/usr/bin/env node
// The per-item cost of `mari serve`'s scoring, without HTTP or a load generator: the scoring
// thread's task (parse the body, resolve and score every item, encode the answer) called in process
// on /v1/rewards and /get_reward bodies of 512 items over contradoc-160 (raw completions, most in
// the layout, and structured judgments, some format-invalid). Reports items per CPU-second per route
// (median of the rounds) and a SHA-256 of every answer, so two builds can be compared for speed and output.
//   node bench/serve-score.mjs [--rounds R] [--requests N] [--dist DIR]
//   (default 7 rounds of 40 requests per route; --dist runs another build's dist/, e.g. a copy of
//   the previous commit's, for a before/after pair)
// Writes bench/results/serve-score.json (only for this repository's own dist/). Needs a build.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { flag, ROOT } from "./lib/measure.mjs";

const ROUNDS = flag("--rounds", 7);
const REQUESTS = flag("--requests", 40);
const ITEMS = 512;
const distFlag = process.argv.indexOf("--dist");
const DIST = distFlag >= 0 ? resolve(process.argv[distFlag + 1]) : join(ROOT, "dist");
const load = (path) => import(pathToFileURL(join(DIST, path)).href);

const { readDocumentSlice } = await load("io/slice.js");
const { DocumentFinder } = await load("server/document-finder.js");
const { DEFAULT_WEIGHTS } = await load("server/weights.js");
const { scoreTaskState, processChunk } = await load("server/score-task.js");

const slice = await readDocumentSlice(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"));
const state = scoreTaskState(slice, new DocumentFinder(slice.cases), {
  weights: { ...DEFAULT_WEIGHTS },
  maxItems: 4096,
  score: { lenientIds: false },
  log: false,
  logPredictions: false,
});

/** Item i: a completion in the layout (every 10th off it), or a structured judgment (some invalid). */
function item(i) {
  const c = slice.cases[(i * 7919) % slice.cases.length];
  const n = c.sentences.length;
  const a = 1 + (i % n);
  const b = 1 + ((i * 31) % n);
  const positive = i % 3 !== 0;
  const evidence = positive ? (i % 2 === 0 && c.gold.length > 0 ? c.gold : [a, b]) : [];
  const reasoning = `Sentence [${a}] says: ${c.sentences[a - 1].slice(0, 120)} Comparing [${a}] with [${b}]-[${Math.min(n, b + 1)}]${i % 7 === 0 ? " and [2023]" : ""}.`;
  if (i % 2 === 0) {
    const text = `<think>\n${reasoning}\n</think>\n<answer>\nJudgment: ${positive ? "yes" : "no"}\nEvidence: ${JSON.stringify(evidence)}\n</answer>`;
    return { case_id: c.id, completion: i % 10 === 8 ? `Answer: ${text}` : text };
  }
  return { case_id: c.id, run: i % 5, judgment: i % 11 === 1 ? !positive : positive, evidence_sentence_ids: evidence, reasoning };
}

const items = Array.from({ length: ITEMS }, (_, i) => item(i));
const encoder = new TextEncoder();
const rewardsBody = encoder.encode(JSON.stringify({ items }));
const queryBody = encoder.encode(
  JSON.stringify({
    query: items.map((it, i) => `<doc>${slice.cases[(i * 7919) % slice.cases.length].sentences.join(" ")}</doc>\n${it.completion ?? ""}`),
    prompts: items.map((_, i) => `<doc>${slice.cases[(i * 7919) % slice.cases.length].sentences.join(" ")}</doc>\n`),
    labels: items.map((it) => it.case_id),
  }),
);
const requests = [
  { route: "/v1/rewards", requestId: "bench", body: rewardsBody },
  { route: "/get_reward", requestId: "bench", body: queryBody },
];

// The answers, once: what a before/after pair must agree on.
const digest = createHash("sha256");
for (const request of requests) {
  const reply = processChunk(state, request);
  if (!reply.ok) throw new Error(`${request.route}: ${reply.status} ${reply.code}: ${reply.message}`);
  digest.update(reply.response);
}
const answers = digest.digest("hex");

/** Items per CPU-second of each round, for one route's requests. */
function rounds(request) {
  const rates = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    for (let k = 0; k < REQUESTS; k++) processChunk(state, request);
    const used = process.cpuUsage(before);
    rates.push((REQUESTS * ITEMS) / ((used.user + used.system) / 1e6));
  }
  const median = [...rates].sort((x, y) => x - y)[Math.floor(rates.length / 2)];
  return { items_per_cpu_second_median: Math.round(median), microseconds_per_item: Number((1e6 / median).toFixed(2)), rounds: rates.map(Math.round) };
}

const result = {
  bench: "serve-score",
  dist: relative(ROOT, DIST) || ".",
  items_per_request: ITEMS,
  requests_per_round: REQUESTS,
  routes: Object.fromEntries(requests.map((request) => [request.route, rounds(request)])),
  answers_sha256: answers,
  load_average: loadavg().map((x) => Number(x.toFixed(2))),
  node: process.version,
};
console.log(JSON.stringify(result, null, 2));
if (distFlag < 0) {
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/serve-score.json"), `${JSON.stringify(result, null, 2)}\n`);
}
