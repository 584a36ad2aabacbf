#!/usr/bin/env node
// Output-identity check for performance work: runs a reference build of mari (`--base DIR`, a copy
// of bin/ + dist/ from before the change) and this tree on the same inputs for --workers 1, 2 and
// an odd --chunk-size, and compares every output file byte for byte, after removing the fields
// that legitimately differ between runs (system, elapsed time); cases.jsonl as the records its
// reader gives. `--allow PATH` (repeatable) names
// report.json keys (dot paths) whose values may differ, e.g. ci.macro_f1.low; in report.md/html
// the lines mentioning them are then shown rather than failed. Exit 1 on any other difference.
// report.json's cases digest is checked on each side against the cases.jsonl beside it (cases_xxh64
// with XXH64, an older build's cases_sha256 with SHA-256) and left out of the comparison; a base
// that records cases_sha256 is compared as it would read with cases_xxh64 instead (schema_version
// at least 1.3.0, report.md's and report.html's rows for both), so nothing else may differ.
// `--cold` runs both builds with `--no-cache`, so that each reads its slice rather than loading the
// compiled slice the other may have left in the user's cache (a change to the slice's read).
// `--only NAME` checks one input (rejections, grpo, eval-1m: the 1M dump, when
// bench/out/eval-dump.jsonl exists and without --quick); a NAME that is unknown or unavailable is
// exit 2, naming the inputs.
//   node bench/lib/check-identical.mjs --base /tmp/perf-base [--allow ci.macro_f1.low ...] [--quick] [--cold] [--only NAME]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./measure.mjs";
import { writeGrpo, writeRejections } from "./dumps.mjs";
import xxhash from "xxhash-wasm";

const args = process.argv.slice(2);
const base = args[args.indexOf("--base") + 1];
const allow = args.flatMap((a, i) => (a === "--allow" ? [args[i + 1]] : []));
const cold = args.includes("--cold");
const OUT = join(ROOT, "bench/out/identical");
mkdirSync(OUT, { recursive: true });

const CONTRADOC = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const grpoSlice = join(ROOT, "bench/out/grpo-slice.jsonl");
const grpoDump = join(ROOT, "bench/out/grpo-dump.jsonl");
const big = join(ROOT, "bench/out/eval-dump.jsonl");
// Every input, each with what writes its dump when it is checked, or why it cannot be checked now.
const INPUTS = [
  {
    name: "rejections",
    slice: CONTRADOC,
    dump: join(OUT, "rejections.jsonl"),
    extra: [[], ["--lenient-ids"]],
    prepare: (input) => writeRejections(CONTRADOC, input.dump),
  },
  {
    name: "grpo",
    slice: grpoSlice,
    dump: grpoDump,
    extra: [[]],
    prepare: async () => {
      if (!existsSync(grpoDump)) await writeGrpo(grpoSlice, grpoDump);
    },
  },
  {
    name: "eval-1m",
    slice: CONTRADOC,
    dump: big,
    extra: [[]],
    unavailable: args.includes("--quick")
      ? "left out by --quick"
      : existsSync(big)
        ? undefined
        : "bench/out/eval-dump.jsonl is missing; `npm run bench -- eval` writes it",
  },
];

// --only NAME checks that input alone; a name that selects nothing is an error, not a silent pass.
const only = args.includes("--only") ? (args[args.indexOf("--only") + 1] ?? "") : null;
const available = INPUTS.filter((input) => input.unavailable === undefined);
const inputs = only === null ? available : available.filter((input) => input.name === only);
if (only !== null && inputs.length === 0) {
  const known = INPUTS.find((input) => input.name === only);
  const names = available.map((input) => input.name).join(", ");
  console.error(
    known
      ? `check-identical: --only ${only}: unavailable (${known.unavailable}); the available inputs: ${names}`
      : `check-identical: --only ${JSON.stringify(only)}: no such input; the inputs: ${INPUTS.map((input) => input.name + (input.unavailable ? ` (unavailable: ${input.unavailable})` : "")).join(", ")}`,
  );
  process.exit(2);
}
for (const input of inputs) await input.prepare?.(input);

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
      ...(cold ? ["--no-cache"] : []),
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
// counts; report.json's digest of the file's bytes is left out for the same reason, once checked
// against the file beside it.
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
  delete j.cases_xxh64;
  return JSON.stringify(j);
}

const { h64Raw } = await xxhash();
const DIGESTS = {
  cases_xxh64: (bytes) => h64Raw(bytes).toString(16).padStart(16, "0"),
  cases_sha256: (bytes) => createHash("sha256").update(bytes).digest("hex"),
};
/** The problems with the digest report.json in `dir` records of the cases.jsonl beside it. */
function digestProblems(dir, side) {
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  const fields = Object.keys(DIGESTS).filter((f) => f in report);
  if (fields.length === 0) return [`${side} report.json records no cases digest`];
  const bytes = readFileSync(join(dir, "cases.jsonl"));
  return fields.flatMap((f) => (DIGESTS[f](bytes) === report[f] ? [] : [`${side} report.json: ${f} is not the digest of its cases.jsonl`]));
}

/** The schema version that added cases_xxh64, which a report recording it states at least. */
const CASES_XXH64_SCHEMA = "1.3.0";
const laterVersion = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i] ? a : b;
  return a;
};

/**
 * The base's file `f` as it reads with this build's cases digest (the base's report.json recorded
 * cases_sha256 and this tree's cases_xxh64): the raised schema_version, and report.md's list of
 * further keys naming the new field.
 */
function withNewDigest(f, text, baseReport) {
  const from = baseReport.schema_version;
  const to = laterVersion(from, CASES_XXH64_SCHEMA);
  if (f === "report.json") {
    const j = JSON.parse(text);
    j.schema_version = to;
    return JSON.stringify(j);
  }
  if (f === "report.md") return text.replace(`| schema version | ${from} |`, `| schema version | ${to} |`).replace("`cases_sha256`", "`cases_xxh64`");
  if (f === "report.html") return text.replace(`<tr><td>schema version</td><td>${from}</td></tr>`, `<tr><td>schema version</td><td>${to}</td></tr>`);
  return text;
}

function normalise(file, text) {
  if (file === "report.json") {
    const j = JSON.parse(text);
    delete j.system;
    delete j.elapsed_seconds;
    delete j.cases_sha256;
    delete j.cases_xxh64;
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
for (const input of inputs) {
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
      problems.push(...digestProblems(join(OUT, "a"), "base"), ...digestProblems(join(OUT, "b"), "this tree's"));
      const baseReport = JSON.parse(readFileSync(join(OUT, "a", "report.json"), "utf8"));
      const newDigest = "cases_sha256" in baseReport && "cases_xxh64" in JSON.parse(readFileSync(join(OUT, "b", "report.json"), "utf8"));
      let digestNoted = false;
      // Not required (the records are what is compared), but what the digests' change rests on.
      if (newDigest) {
        const same = readFileSync(join(OUT, "a", "cases.jsonl")).equals(readFileSync(join(OUT, "b", "cases.jsonl")));
        console.log(`${label}: cases.jsonl ${same ? "byte for byte the base's" : "not byte for byte the base's (its records are compared)"}`);
      }
      for (const f of files) {
        if (!filesB.includes(f)) continue;
        if (f === "cases.jsonl") {
          if ((await caseRecords(join(OUT, "a"))) !== (await caseRecords(join(OUT, "b")))) problems.push("cases.jsonl: different records");
          continue;
        }
        let x = readFileSync(join(OUT, "a", f));
        const y = readFileSync(join(OUT, "b", f));
        if (x.equals(y)) continue;
        if (newDigest && x.length <= LARGE) {
          x = Buffer.from(withNewDigest(f, x.toString("utf8"), baseReport));
          if (!digestNoted)
            console.log(
              `${label}: the base records cases_sha256, this tree cases_xxh64 (schema_version ${baseReport.schema_version} read as at least ${CASES_XXH64_SCHEMA})`,
            );
          digestNoted = true;
        }
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
