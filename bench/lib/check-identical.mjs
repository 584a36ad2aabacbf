#!/usr/bin/env node
// Output-identity check for performance work: runs a reference build of mari (`--base DIR`, a copy
// of bin/ + dist/ from before the change) and this tree on the same inputs for --workers 1, 2 and
// an odd --chunk-size, and compares every output file byte for byte, after removing the fields
// that legitimately differ between runs (system, elapsed time); cases.jsonl as the records its
// reader gives. `--allow PATH` (repeatable) names
// report.json keys (dot paths) whose values may differ, e.g. ci.macro_f1.low; in report.md/html
// the lines mentioning them are then shown rather than failed. Exit 1 on any other difference.
//   node bench/lib/check-identical.mjs --base /tmp/perf-base [--allow ci.macro_f1.low ...] [--quick] [--only NAME]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./measure.mjs";
import { writeGrpo, writeRejections } from "./dumps.mjs";

const args = process.argv.slice(2);
const base = args[args.indexOf("--base") + 1];
const allow = args.flatMap((a, i) => (a === "--allow" ? [args[i + 1]] : []));
const OUT = join(ROOT, "bench/out/identical");
mkdirSync(OUT, { recursive: true });

const CONTRADOC = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const inputs = [];
const rej = join(OUT, "rejections.jsonl");
await writeRejections(CONTRADOC, rej);
inputs.push({ name: "rejections", slice: CONTRADOC, dump: rej, extra: [[], ["--lenient-ids"]] });
const grpoSlice = join(ROOT, "bench/out/grpo-slice.jsonl");
const grpoDump = join(ROOT, "bench/out/grpo-dump.jsonl");
if (!existsSync(grpoDump)) await writeGrpo(grpoSlice, grpoDump);
inputs.push({ name: "grpo", slice: grpoSlice, dump: grpoDump, extra: [[]] });
const big = join(ROOT, "bench/out/eval-dump.jsonl");
if (!args.includes("--quick") && existsSync(big)) inputs.push({ name: "eval-1m", slice: CONTRADOC, dump: big, extra: [[]] });

function run(bin, input, opts, dir) {
  rmSync(dir, { recursive: true, force: true });
  const r = spawnSync(
    process.execPath,
    [
      join(bin, "bin/mari.js"),
      "eval",
      input.slice,
      "--predictions",
      input.dump,
      "--out",
      dir,
      "--progress",
      "none",
      "--quiet",
      "--rewards",
      join(dir, "rewards.jsonl"),
      ...opts,
    ],
    { encoding: "utf8", maxBuffer: 1 << 26 },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Files too big for one string (cases.jsonl of the 1M dump) are compared whole, as bytes. */
const LARGE = 64 << 20;

// cases.jsonl is compared as the full per-(case, run) records its one reader gives (either layout:
// a base build from before the compact layout wrote full lines), so only a change of content
// counts; report.json's cases_sha256, the hash of the file's bytes, is left out for the same reason.
const { readDocumentCases } = await import(join(ROOT, "dist/report/document-cases.js"));
async function caseRecords(dir) {
  const hash = createHash("sha256");
  for await (const item of readDocumentCases(join(dir, "cases.jsonl"))) hash.update(`${"record" in item ? JSON.stringify(item.record) : item.error}\n`);
  return hash.digest("hex");
}

/** This tree's output file, as compared across its own configurations (only `system`/timing removed). */
function ownText(f) {
  const bytes = readFileSync(join(OUT, "b", f));
  if (bytes.length > LARGE) return createHash("sha256").update(bytes).digest("hex");
  if (f !== "report.json") return normalise(f, bytes.toString("utf8")).text;
  const j = JSON.parse(bytes.toString("utf8"));
  delete j.system;
  delete j.elapsed_seconds;
  delete j.cases_sha256;
  return JSON.stringify(j);
}

function normalise(file, text) {
  if (file === "report.json") {
    const j = JSON.parse(text);
    delete j.system;
    delete j.elapsed_seconds;
    delete j.cases_sha256;
    const diffs = [];
    for (const path of allow) {
      const keys = path.split(".");
      let o = j;
      for (const k of keys.slice(0, -1)) o = o?.[k];
      if (o && keys.at(-1) in o) delete o[keys.at(-1)];
    }
    return { text: JSON.stringify(j, null, 1), diffs };
  }
  // Timings and provenance lines in the human-readable reports.
  return {
    text: text
      .split("\n")
      .filter((l) => !/elapsed|seconds|workers|git|node v|mari_version|sha|config_hash|time=|timestamp|generated/i.test(l))
      .join("\n"),
  };
}

let failed = 0;
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
for (const input of inputs.filter((i) => only === null || i.name === only)) {
  for (const extra of input.extra) {
    // This tree's outputs must also agree across worker counts and chunk sizes, allowed keys included.
    let firstOwn = null;
    for (const opts of [
      ["--workers", "1"],
      ["--workers", "2"],
      ["--workers", "2", "--chunk-size", "777"],
    ]) {
      const all = [...opts, ...extra];
      const a = run(base, input, all, join(OUT, "a"));
      const b = run(ROOT, input, all, join(OUT, "b"));
      const label = `${input.name} ${all.join(" ")}`;
      const problems = [];
      const own = readdirSync(join(OUT, "b"))
        .sort()
        .map((f) => [f, ownText(f)]);
      if (firstOwn === null) firstOwn = own;
      else
        for (const [i, [f, text]] of own.entries())
          if (firstOwn[i]?.[0] !== f || firstOwn[i][1] !== text) problems.push(`${f}: differs from this tree's first configuration`);
      if (a.status !== b.status) problems.push(`exit ${a.status} vs ${b.status}`);
      if (a.stdout !== b.stdout) problems.push("stdout differs");
      const files = readdirSync(join(OUT, "a")).sort();
      const filesB = readdirSync(join(OUT, "b")).sort();
      if (files.join() !== filesB.join()) problems.push(`files ${files} vs ${filesB}`);
      for (const f of files) {
        if (!filesB.includes(f)) continue;
        if (f === "cases.jsonl") {
          if ((await caseRecords(join(OUT, "a"))) !== (await caseRecords(join(OUT, "b")))) problems.push("cases.jsonl: different records");
          continue;
        }
        const x = readFileSync(join(OUT, "a", f));
        const y = readFileSync(join(OUT, "b", f));
        if (x.equals(y)) continue;
        if (x.length > LARGE || y.length > LARGE) {
          problems.push(`${f}: differs (${x.length} vs ${y.length} bytes)`);
          continue;
        }
        const nx = normalise(f, x.toString("utf8")).text;
        const ny = normalise(f, y.toString("utf8")).text;
        if (nx === ny) continue;
        const lx = nx.split("\n");
        const ly = ny.split("\n");
        const changed = [];
        for (let i = 0; i < Math.max(lx.length, ly.length); i++) if (lx[i] !== ly[i]) changed.push(`  - ${lx[i]}\n  + ${ly[i]}`);
        const allowedLine = (s) =>
          allow.length > 0 && /macro|F1|f1|bootstrap|schema/i.test(s) && f !== "report.json" && f !== "cases.jsonl" && f !== "rewards.jsonl";
        if (changed.every(allowedLine)) console.log(`${label}: ${f}: ${changed.length} allowed line(s) differ\n${changed.slice(0, 3).join("\n")}`);
        else problems.push(`${f}: ${changed.length} line(s) differ\n${changed.slice(0, 4).join("\n")}`);
      }
      console.log(`${problems.length === 0 ? "same" : "DIFF"}  ${label}${problems.length ? `\n${problems.join("\n")}` : ""}`);
      failed += problems.length > 0 ? 1 : 0;
    }
  }
}
process.exit(failed > 0 ? 1 : 0);
