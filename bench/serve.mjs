#!/usr/bin/env node
// `mari serve` throughput and latency: the real CLI in a child process on 127.0.0.1,
// POST /v1/rewards with batches of 64 and 512 raw completions over the contradoc-160 slice, from 1,
// 8 and 32 concurrent keep-alive clients (node:http Agent, one request in flight per client),
// against a server that scores on its own thread (`--workers 1`) and one with a pool of scoring
// threads (`--workers 2`). Reports items/s (wall), items per server CPU-second (from the server's
// /health, threads included), p50/p99 latency.
//   node bench/serve.mjs [--seconds S] [--repeat R] [--workers 1,2] [--only 512x32]
//   (default 4 s per scenario after a 1 s warm-up, repeated 3 times; the run with the most items/s
//   is reported, with every run's items/s and p99 beside it, because other jobs share the machine)
// Writes bench/results/serve.json. Needs a build (`npm run build`).
import { mkdirSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { flag, ROOT } from "./lib/measure.mjs";
import { startServeChild } from "./lib/serve-child.mjs";

const SECONDS = flag("--seconds", 4);
const REPEAT = flag("--repeat", 3);
const SLICE = "datasets/contradoc/contradoc-160.jsonl";
const BATCHES = [64, 512];
const CLIENTS = [1, 8, 32];

/** A comma-separated flag value, e.g. `--workers 1,2`. */
function listFlag(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1].split(",") : fallback;
}
const WORKERS = listFlag("--workers", ["1", "2"]).map(Number);
/** `BATCHxCLIENTS` scenarios to run (default: every batch with every client count). */
const ONLY = listFlag(
  "--only",
  BATCHES.flatMap((b) => CLIENTS.map((c) => `${b}x${c}`)),
);
const { readDocumentSlice } = await import(join(ROOT, "dist/io/slice.js"));

/** Completions as a policy would write them: mostly in the layout, citing sentences, some not. */
function completions(cases, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const c = cases[(i * 7919) % cases.length];
    const n = c.sentences.length;
    const a = 1 + (i % n);
    const b = 1 + ((i * 31) % n);
    const think = `Sentence [${a}] says: ${c.sentences[a - 1].slice(0, 200)}\nSentence [${b}] says: ${c.sentences[b - 1].slice(0, 200)}\nComparing [${a}] with [${b}]-[${Math.min(n, b + 1)}].`;
    const positive = i % 3 !== 0;
    const evidence = positive ? (i % 2 === 0 ? (c.gold.length > 0 ? c.gold : [a]) : [a, b]) : [];
    let text = `<think>\n${think}\n</think>\n<answer>\nJudgment: ${positive ? "yes" : "no"}\nEvidence: ${JSON.stringify(evidence)}\n</answer>`;
    if (i % 10 === 9) text = `Answer: ${text}`; // off the layout: format 0
    out.push({ case_id: c.id, completion: text });
  }
  return out;
}

function post(agent, port, body) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        port,
        host: "127.0.0.1",
        path: "/v1/rewards",
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (d) => chunks.push(d));
        res.on("end", () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function health(port) {
  const res = await fetch(`http://127.0.0.1:${port}/health`);
  return res.json();
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** C clients, each sending batches back to back for `seconds`; latencies of every request. */
async function scenario(port, bodies, clients, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies = [];
  let items = 0;
  const before = (await health(port)).process.cpu_seconds;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let k = c; process.hrtime.bigint() < deadline; k += clients) {
        const { body, count } = bodies[k % bodies.length];
        const t = process.hrtime.bigint();
        await post(agent, port, body);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        items += count;
      }
    }),
  );
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = (await health(port)).process.cpu_seconds - before;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    items,
    wall_seconds: +wall.toFixed(3),
    items_per_second: Math.round(items / wall),
    server_cpu_seconds: +cpu.toFixed(3),
    items_per_server_cpu_second: Math.round(items / cpu),
    p50_ms: +percentile(latencies, 50).toFixed(2),
    p99_ms: +percentile(latencies, 99).toFixed(2),
  };
}

const slice = await readDocumentSlice(join(ROOT, SLICE));
const scenarios = [];
for (const workers of WORKERS) {
  const server = await startServeChild(SLICE, ["--workers", String(workers)]);
  try {
    for (const batch of BATCHES) {
      // 16 distinct bodies per batch size, so no two consecutive requests are the same string.
      const pool = completions(slice.cases, batch * 16);
      const bodies = Array.from({ length: 16 }, (_, b) => ({ body: JSON.stringify({ items: pool.slice(b * batch, (b + 1) * batch) }), count: batch }));
      for (const clients of CLIENTS) {
        if (!ONLY.includes(`${batch}x${clients}`)) continue;
        await scenario(server.port, bodies, clients, 1); // warm-up (JIT, connections, worker start)
        const runs = [];
        for (let i = 0; i < REPEAT; i++) runs.push({ ...(await scenario(server.port, bodies, clients, SECONDS)), load_average_1m: +loadavg()[0].toFixed(2) });
        const best = runs.reduce((a, b) => (b.items_per_second > a.items_per_second ? b : a));
        const row = {
          workers,
          batch,
          clients,
          body_kb: Math.round(Buffer.byteLength(bodies[0].body) / 1024),
          ...best,
          items_per_second_all_runs: runs.map((r) => r.items_per_second),
          p99_ms_all_runs: runs.map((r) => r.p99_ms),
        };
        console.log(JSON.stringify(row));
        scenarios.push(row);
      }
    }
  } finally {
    await server.stop();
  }
}
const result = {
  command: `npm run bench -- serve   (node bench/serve.mjs --seconds ${SECONDS} --repeat ${REPEAT} --workers ${WORKERS.join(",")})`,
  date: new Date().toISOString(),
  machine: { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, node: process.version, loadAverage1mAtEnd: +loadavg()[0].toFixed(2) },
  setup: `mari serve ${SLICE} --workers N (N = 1: scoring on the server's thread; N > 1: N scoring threads sharing one compiled slice); the load generator runs in the bench process on the same machine, so wall figures include its CPU; items_per_server_cpu_second is the server's own cost, all its threads`,
  scenarios,
  target: "batch 512, 32 clients: p99 < 50 ms and >= 100,000 items/s on 2 cores",
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/serve.json"), `${JSON.stringify(result, null, 2)}\n`);
