#!/usr/bin/env node
// `mari serve` under hostile load: the built CLI in a child process (`--workers 2`) on 127.0.0.1,
// probed by clients that do not behave, while one well-behaved client keeps asking /health and
// scoring a small request. Counted, per probe: well-behaved requests that failed, hostile
// connections the server did not end, and whether the server was still alive and answering after.
//   slowloris  — 200 connections trickle their headers one byte a second; the server must cut them
//                (its headers timeout is 20 s) and keep answering the others meanwhile.
//   500 connections — 500 clients each post a 64-item request at once: every one answered 200.
//   floods     — 20,000 small requests over 64 keep-alive connections; 200 connections of random
//                bytes; 20 bodies over --max-body (413, the server's memory bounded).
//   node bench/serve-probes.mjs
// Writes bench/results/serve-probes.json. Needs a build (`npm run build`). Takes about a minute.
import { mkdirSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/measure.mjs";
import { startServeChild } from "./lib/serve-child.mjs";

const SLICE = "datasets/contradoc/contradoc-160.jsonl";
const { readDocumentSlice } = await import(join(ROOT, "dist/io/slice.js"));
const slice = await readDocumentSlice(join(ROOT, SLICE));
const ANSWER = "<think>\nSee [1].\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>";
const itemsBody = (n) =>
  JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ case_id: slice.cases[i % slice.cases.length].id, completion: ANSWER })) });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function post(port, body, agent) {
  return new Promise((resolve) => {
    const req = request(
      {
        port,
        host: "127.0.0.1",
        path: "/v1/rewards",
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      },
    );
    req.setTimeout(60_000, () => req.destroy());
    req.on("error", () => resolve("error"));
    req.end(body);
  });
}

async function healthy(port) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(30_000) });
    return res.status === 200 ? (await res.json()).process.rss_mb : undefined;
  } catch {
    return undefined;
  }
}

/** A well-behaved client: /health and a 16-item request, every 250 ms until `stop()`; counts failures. */
function steadyClient(port) {
  let running = true;
  const tally = { requests: 0, failed: 0 };
  const done = (async () => {
    while (running) {
      const [rss, status] = await Promise.all([healthy(port), post(port, itemsBody(16))]);
      tally.requests += 2;
      if (rss === undefined) tally.failed++;
      if (status !== 200) tally.failed++;
      await sleep(250);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      return tally;
    },
  };
}

/** A raw connection; resolves with how it ended ("closed by server" or "still open" at `deadline`). */
function rawConnection(port, onConnect, deadlineMs) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let timer;
    socket.on("connect", () => onConnect(socket));
    const end = (how) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(how);
    };
    socket.on("data", () => {});
    socket.on("close", () => end("closed by server"));
    socket.on("error", () => end("closed by server"));
    timer = setTimeout(() => end("still open"), deadlineMs);
  });
}

async function slowloris(port) {
  const header = "POST /v1/rewards HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-slow: ";
  const ended = await Promise.all(
    Array.from({ length: 200 }, () =>
      rawConnection(
        port,
        (socket) => {
          let i = 0;
          const tick = setInterval(() => {
            if (socket.destroyed) return clearInterval(tick);
            socket.write(header[i % header.length]);
            i++;
          }, 1000);
          socket.on("close", () => clearInterval(tick));
        },
        60_000,
      ),
    ),
  );
  return { connections: ended.length, not_cut_by_server: ended.filter((e) => e !== "closed by server").length };
}

async function manyConnections(port) {
  const agent = new Agent({ keepAlive: false, maxSockets: 500 });
  const statuses = await Promise.all(Array.from({ length: 500 }, () => post(port, itemsBody(64), agent)));
  agent.destroy();
  return { requests: statuses.length, not_200: statuses.filter((s) => s !== 200).length };
}

async function floods(port) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const small = itemsBody(2);
  let sent = 0;
  const statuses = [];
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (sent < 20_000) {
        sent++;
        statuses.push(await post(port, small, agent));
      }
    }),
  );
  agent.destroy();
  const garbage = await Promise.all(
    Array.from({ length: 200 }, (_, k) =>
      rawConnection(port, (socket) => socket.write(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + k * 7) % 256))), 30_000),
    ),
  );
  const big = "x".repeat(9 * 2 ** 20);
  const oversized = await Promise.all(Array.from({ length: 20 }, () => post(port, big)));
  return {
    small_requests: statuses.length,
    small_not_200: statuses.filter((s) => s !== 200).length,
    garbage_connections: garbage.length,
    garbage_not_cut_by_server: garbage.filter((e) => e !== "closed by server").length,
    oversized_bodies: oversized.length,
    oversized_not_413: oversized.filter((s) => s !== 413 && s !== "error").length,
    oversized_connection_cut: oversized.filter((s) => s === "error").length,
  };
}

const server = await startServeChild(SLICE, ["--workers", "2"]);
const probes = {};
try {
  for (const [name, probe] of [
    ["slowloris", slowloris],
    ["500_connections", manyConnections],
    ["floods", floods],
  ]) {
    const steady = steadyClient(server.port);
    const started = Date.now();
    const outcome = await probe(server.port);
    const tally = await steady.stop();
    const rss = await healthy(server.port);
    probes[name] = {
      ...outcome,
      seconds: +((Date.now() - started) / 1000).toFixed(1),
      steady_requests: tally.requests,
      steady_failed: tally.failed,
      alive_after: rss !== undefined,
      rss_mb_after: rss ?? null,
    };
    console.log(name, JSON.stringify(probes[name]));
  }
} finally {
  await server.stop();
}
const failures =
  probes.slowloris.not_cut_by_server +
  probes["500_connections"].not_200 +
  probes.floods.small_not_200 +
  probes.floods.garbage_not_cut_by_server +
  probes.floods.oversized_not_413 +
  Object.values(probes).reduce((n, p) => n + p.steady_failed + (p.alive_after ? 0 : 1), 0);
const result = {
  command: "npm run bench -- serve-probes   (node bench/serve-probes.mjs)",
  date: new Date().toISOString(),
  machine: { cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, node: process.version, loadAverage1mAtEnd: +loadavg()[0].toFixed(2) },
  setup: `mari serve ${SLICE} --workers 2; every probe runs beside a well-behaved client (/health and a 16-item request every 250 ms)`,
  failures,
  probes,
};
console.log(`failures: ${failures}`);
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/serve-probes.json"), `${JSON.stringify(result, null, 2)}\n`);
if (failures > 0) process.exitCode = 1;
