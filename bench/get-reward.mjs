#!/usr/bin/env node
// `/get_reward` (OpenRLHF's remote reward route) against its floor. One request of OpenRLHF's shape:
// 1,024 queries over contradoc-160, each the whole ChatML prompt (instruction + the tagged document)
// followed by a completion (≈ 4.5 KB a query), with `prompts`, and `labels` that name the case or are
// all "" (no --label_key: the case is found from the prompt's document); the body is ASCII, as
// Python's json (hence `requests`) writes it. The floor is what any server must spend on it: Node's
// JSON.parse of the same body, plus the same completions scored through `/v1/rewards` (with their case
// ids). The server (`mari serve --workers 1`, a child process) reports its CPU seconds in /health;
// JSON.parse runs in this process. Measured in interleaved rounds (on a shared machine the load
// moves; each round's ratio compares requests sent within the same second) and reported as medians:
//   ratio = server CPU of /get_reward ÷ (JSON.parse of its body + server CPU of /v1/rewards)
// JSON.parse is timed on the body's text; `_with_decode` also counts decoding the bytes into it
// (`JSON.parse(buffer.toString())`, what a plain Node server does with a body it received).
//   node bench/get-reward.mjs [--rounds R] [--requests N]
//   (default 15 rounds, each N = 4 requests per kind, the CPU divided by N)
// Writes bench/results/get-reward.json. Needs a build (`npm run build`).
import { request } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { flag, ROOT } from "./lib/measure.mjs";
import { startServeChild } from "./lib/serve-child.mjs";

const ROUNDS = flag("--rounds", 15);
const REQUESTS = flag("--requests", 4);
const QUERIES = 1024;
const SLICE = "datasets/contradoc/contradoc-160.jsonl";

const { readDocumentSlice } = await import(join(ROOT, "dist/io/slice.js"));
const { tagSentences } = await import(join(ROOT, "dist/core/document/sentences.js"));
const slice = await readDocumentSlice(join(ROOT, SLICE));

/** A completion of about 2 KB: reasoning that quotes sentences, then the answer (every 10th off the layout). */
function completion(c, i) {
  const n = c.sentences.length;
  const lines = [];
  for (let k = 0; lines.join("\n").length < 2000; k++) {
    const a = 1 + ((i + k * 7) % n);
    lines.push(`Sentence [${a}] says: ${c.sentences[a - 1].slice(0, 240)}`);
  }
  const positive = i % 3 !== 0;
  const evidence = positive ? (c.gold.length > 0 && i % 2 === 0 ? c.gold : [1 + (i % n)]) : [];
  const text = `<think>\n${lines.join("\n")}\n</think>\n<answer>\nJudgment: ${positive ? "yes" : "no"}\nEvidence: ${JSON.stringify(evidence)}\n</answer>`;
  return i % 10 === 9 ? `Answer: ${text}` : text;
}

/** JSON as Python's json.dumps writes it by default: every character above U+007F escaped. */
function asciiJson(value) {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const prompts = [];
const queries = [];
const items = [];
for (let i = 0; i < QUERIES; i++) {
  const c = slice.cases[(i * 7919) % slice.cases.length];
  const content = `Does this document contradict itself? Think in <think>, answer in <answer> with Judgment and Evidence.\n\n${tagSentences(c.sentences)}`;
  const prompt = `<|im_start|>system\nYou are a careful reader.<|im_end|>\n<|im_start|>user\n${content}<|im_end|>\n<|im_start|>assistant\n`;
  const text = completion(c, i);
  prompts.push(prompt);
  // The response as OpenRLHF decodes it, end marker included; /v1/rewards gets the same text.
  const response = `${text}<|im_end|>`;
  queries.push(`${prompt}${response}`);
  items.push({ case_id: c.id, completion: response });
}
const bodies = {
  get_reward_labels: asciiJson({ query: queries, prompts, labels: items.map((it) => it.case_id) }),
  get_reward_no_labels: asciiJson({ query: queries, prompts, labels: items.map(() => "") }),
  v1_rewards: asciiJson({ items }),
};
const queryBytes = queries.reduce((sum, q) => sum + Buffer.byteLength(q), 0) / QUERIES;

function post(port, path, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      { port, host: "127.0.0.1", path, method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on("data", (d) => chunks.push(d));
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(JSON.parse(Buffer.concat(chunks).toString()))
            : reject(new Error(`${path}: status ${res.statusCode}: ${Buffer.concat(chunks)}`)),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function serverCpu(port) {
  return (await (await fetch(`http://127.0.0.1:${port}/health`)).json()).process.cpu_seconds;
}

/** Server CPU milliseconds per request of `kind`, over REQUESTS requests. */
async function serverMs(port, kind) {
  const path = kind === "v1_rewards" ? "/v1/rewards" : "/get_reward";
  const before = await serverCpu(port);
  for (let k = 0; k < REQUESTS; k++) await post(port, path, bodies[kind]);
  return (((await serverCpu(port)) - before) * 1000) / REQUESTS;
}

/** This process's CPU milliseconds for `parse(body)`, per call. */
function cpuMs(parse, body) {
  const before = process.cpuUsage();
  for (let k = 0; k < REQUESTS; k++) parse(body);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / REQUESTS;
}
const parseText = (text) => JSON.parse(text);
// What a plain Node server does with the bytes it received: decode them, then parse.
const parseBytes = (bytes) => JSON.parse(bytes.toString());
const bodyBytes = Object.fromEntries(Object.entries(bodies).map(([kind, text]) => [kind, Buffer.from(text)]));

const server = await startServeChild(SLICE, ["--workers", "1"]);
const rounds = [];
try {
  // The same answers from both routes: the same completions, the same cases.
  const [labelled, unlabelled, v1] = [
    await post(server.port, "/get_reward", bodies.get_reward_labels),
    await post(server.port, "/get_reward", bodies.get_reward_no_labels),
    await post(server.port, "/v1/rewards", bodies.v1_rewards),
  ];
  const expected = JSON.stringify(v1.results.map((r) => r.accuracy + r.format + r.reference_coverage));
  if (JSON.stringify(labelled.rewards) !== expected || JSON.stringify(unlabelled.rewards) !== expected) throw new Error("the routes disagree");
  if (JSON.stringify(unlabelled.case_ids) !== JSON.stringify(items.map((it) => it.case_id))) throw new Error("a document was not found");
  for (let round = 0; round < ROUNDS; round++) {
    // The order turns each round, so no kind always runs first after a pause.
    const kinds = ["get_reward_labels", "get_reward_no_labels", "v1_rewards"];
    const order = kinds.slice(round % 3).concat(kinds.slice(0, round % 3));
    const ms = {};
    for (const kind of order) ms[kind] = await serverMs(server.port, kind);
    ms.json_parse_labels = cpuMs(parseText, bodies.get_reward_labels);
    ms.json_parse_no_labels = cpuMs(parseText, bodies.get_reward_no_labels);
    ms.decode_and_parse_labels = cpuMs(parseBytes, bodyBytes.get_reward_labels);
    ms.decode_and_parse_no_labels = cpuMs(parseBytes, bodyBytes.get_reward_no_labels);
    const row = {
      ...Object.fromEntries(Object.entries(ms).map(([k, v]) => [`${k}_ms`, +v.toFixed(2)])),
      ratio_labels: +(ms.get_reward_labels / (ms.json_parse_labels + ms.v1_rewards)).toFixed(3),
      ratio_no_labels: +(ms.get_reward_no_labels / (ms.json_parse_no_labels + ms.v1_rewards)).toFixed(3),
      ratio_labels_with_decode: +(ms.get_reward_labels / (ms.decode_and_parse_labels + ms.v1_rewards)).toFixed(3),
      ratio_no_labels_with_decode: +(ms.get_reward_no_labels / (ms.decode_and_parse_no_labels + ms.v1_rewards)).toFixed(3),
      load_average_1m: +loadavg()[0].toFixed(2),
    };
    console.log(JSON.stringify(row));
    rounds.push(row);
  }
} finally {
  await server.stop();
}

function med(key) {
  const sorted = rounds.map((r) => r[key]).sort((a, b) => a - b);
  const h = sorted.length >> 1;
  return +(sorted.length % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2).toFixed(3);
}
const result = {
  command: `npm run bench -- get-reward   (node bench/get-reward.mjs --rounds ${ROUNDS} --requests ${REQUESTS})`,
  date: new Date().toISOString(),
  machine: { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, node: process.version, loadAverage1mAtEnd: +loadavg()[0].toFixed(2) },
  setup: `mari serve ${SLICE} --workers 1; one request = ${QUERIES} queries (ChatML prompt + completion, ${Math.round(queryBytes)} bytes a query on average), body ${(Buffer.byteLength(bodies.get_reward_labels) / 2 ** 20).toFixed(1)} MiB; /v1/rewards gets the same completions with their case ids (${(Buffer.byteLength(bodies.v1_rewards) / 2 ** 20).toFixed(1)} MiB)`,
  target: "server CPU of /get_reward <= 1.25 x (JSON.parse of the same body + server CPU of /v1/rewards on the same completions), with labels and without",
  median: {
    get_reward_labels_ms: med("get_reward_labels_ms"),
    get_reward_no_labels_ms: med("get_reward_no_labels_ms"),
    v1_rewards_ms: med("v1_rewards_ms"),
    json_parse_labels_ms: med("json_parse_labels_ms"),
    json_parse_no_labels_ms: med("json_parse_no_labels_ms"),
    decode_and_parse_labels_ms: med("decode_and_parse_labels_ms"),
    decode_and_parse_no_labels_ms: med("decode_and_parse_no_labels_ms"),
    ratio_labels: med("ratio_labels"),
    ratio_no_labels: med("ratio_no_labels"),
    ratio_labels_with_decode: med("ratio_labels_with_decode"),
    ratio_no_labels_with_decode: med("ratio_no_labels_with_decode"),
  },
  rounds,
};
console.log(JSON.stringify(result.median));
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/get-reward.json"), `${JSON.stringify(result, null, 2)}\n`);
