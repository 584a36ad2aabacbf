#!/usr/bin/env node
// Runs a fixed set of `mari` commands (documents, pairs, evidence, shards + merge, baselines,
// bad input) with the built CLI and writes every output into one directory, with report.json's
// timing and system fields removed. Two snapshots taken before and after a refactor must be
// identical (`diff -r A B`): that is how "behaviour unchanged" is checked.
// The commands keep their compiled-slice cache in CACHE_HOME (XDG_CACHE_HOME of the children;
// default a temporary directory removed at the end): give the same one twice to compare a cold run
// with a warm one.
//   node scripts/output-snapshot.mjs OUT_DIR [--cache-home CACHE_HOME]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(process.argv[2] ?? "snapshot");
const MARI = join(ROOT, "bin/mari.js");
const D160 = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const D891 = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
const EV = join(ROOT, "datasets/evidence-example");

const cacheFlag = process.argv.indexOf("--cache-home");
const cacheHome = cacheFlag > 0 ? resolve(process.argv[cacheFlag + 1]) : mkdtempSync(join(tmpdir(), "mari-snapshot-cache-"));
process.env.XDG_CACHE_HOME = cacheHome;
if (cacheFlag < 0) process.on("exit", () => rmSync(cacheHome, { recursive: true, force: true }));
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const work = join(OUT, "_inputs");
mkdirSync(work);

// A deterministic dump over contradoc-891: three runs, every prediction shape, some bad lines.
let state = 7;
const rand = (n) => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return (state >>> 8) % n;
};
const cases = readFileSync(D891, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l));
function dump(runs, salt) {
  const lines = [];
  for (let run = 0; run < runs; run++) {
    for (const c of cases) {
      const judgment = rand(10) < 6 + salt ? c.label : !c.label;
      const ids = judgment ? [1 + rand(12), 1 + rand(30)] : [];
      const reasoning = `See [${1 + rand(9)}] and [${1 + rand(9)}]-[${2 + rand(9)}].`;
      const shape = rand(20);
      if (shape === 0) lines.push("{not json");
      else if (shape === 1) lines.push(JSON.stringify({ case_id: c.id, run, judgment: "maybe", evidence_sentence_ids: ids, reasoning }));
      else if (shape === 2)
        lines.push(
          JSON.stringify({
            case_id: c.id,
            run,
            completion: `<think>\n${reasoning}\n</think>\n<answer>\nJudgment: ${judgment ? "yes" : "no"}\nEvidence: [${ids.join(", ")}]\n</answer>`,
          }),
        );
      else if (shape === 3) lines.push(JSON.stringify({ case_id: `${c.id}-orphan`, run, judgment, evidence_sentence_ids: ids, reasoning }));
      else if (shape === 4) continue;
      else lines.push(JSON.stringify({ case_id: c.id, run, judgment, evidence_sentence_ids: ids, reasoning }));
    }
  }
  return `${lines.join("\n")}\n`;
}
const DUMP = join(work, "dump.jsonl");
const BASE_DUMP = join(work, "base-dump.jsonl");
writeFileSync(DUMP, dump(3, 0));
writeFileSync(BASE_DUMP, dump(3, 1));
writeFileSync(join(work, "costs.json"), JSON.stringify({ downrank_live: 2, lost_corroboration: 1, stale_kept: 3, false_corroboration: 1 }));

const steps = [
  ["lexical-160", ["eval", D160]],
  ["base", ["eval", D891, "--predictions", BASE_DUMP, "--workers", "1"]],
  [
    "eval-w1",
    [
      "eval",
      D891,
      "--predictions",
      DUMP,
      "--workers",
      "1",
      "--rewards",
      "@OUT/rewards.jsonl",
      "--gate",
      "accuracy>=0.6",
      "--baseline",
      "@base/report.json",
      "--max-drop",
      "accuracy=0.01",
      "--max-invalid-rate",
      "0.05",
    ],
  ],
  [
    "eval-w2",
    [
      "eval",
      D891,
      "--predictions",
      DUMP,
      "--workers",
      "2",
      "--rewards",
      "@OUT/rewards.jsonl",
      "--gate",
      "accuracy>=0.6",
      "--baseline",
      "@base/report.json",
      "--max-drop",
      "accuracy=0.01",
      "--max-invalid-rate",
      "0.05",
    ],
  ],
  ["shard0", ["eval", D891, "--predictions", DUMP, "--shard", "0/2"]],
  ["shard1", ["eval", D891, "--predictions", DUMP, "--shard", "1/2"]],
  ["merged", ["merge", "@shard0/report.json", "@shard1/report.json"]],
  ["strict", ["eval", D891, "--predictions", DUMP, "--strict", "--report", "json"]],
  ["pairs", ["eval", PAIRS, "--costs", join(work, "costs.json"), "--gate", "accuracy>=0.5"]],
  ["pairs-shard0", ["eval", PAIRS, "--shard", "0/2"]],
  ["pairs-shard1", ["eval", PAIRS, "--shard", "1/2"]],
  ["pairs-merged", ["merge", "@pairs-shard0/report.json", "@pairs-shard1/report.json", "--slice", PAIRS]],
  ["classify", ["classify", PAIRS], "stdout-only"],
  ["sweep", ["sweep", PAIRS]],
  [
    "evidence",
    [
      "evidence",
      join(EV, "docs.jsonl"),
      "--facts",
      join(EV, "facts.jsonl"),
      "--located",
      join(EV, "located.jsonl"),
      "--materials",
      join(EV, "materials.jsonl"),
      "--current",
      join(EV, "current.jsonl"),
      "--gate",
      "accepted_rate>=0.3",
    ],
  ],
  ["usage-error", ["eval", D891, "--predictions", join(work, "missing.jsonl")]],
  ["bad-gate", ["eval", D891, "--predictions", DUMP, "--gate", "accuracy"]],
];

const volatile = new Set(["elapsed_seconds", "system", "generated_at", "started_at", "finished_at", "duration_ms"]);
function normalise(value) {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) if (!volatile.has(k)) out[k] = normalise(v);
    return out;
  }
  return value;
}
const scrub = (text) =>
  text
    .replaceAll(OUT, "<OUT>")
    .replaceAll(ROOT, "<ROOT>")
    .replace(/\d+(\.\d+)?\/s\b/g, "<rate>/s")
    .replace(/eta \d+:\d\d/g, "eta <eta>")
    .replace(/\d+(\.\d+)? ?(ms|s)\b/g, "<time>");

for (const [name, args, mode] of steps) {
  const dir = join(OUT, name);
  mkdirSync(dir, { recursive: true });
  // Paths relative to OUT, so that two snapshots taken in different folders can be compared.
  const resolved = args.map((a) => (a.startsWith("@") ? a.replace(/^@OUT/, name).replace(/^@/, "") : a.startsWith(OUT) ? a.slice(OUT.length + 1) : a));
  const out = mode === "stdout-only" ? [] : ["--out", name];
  const progress = mode === "stdout-only" || args[0] === "merge" ? [] : ["--progress", "none"];
  const r = spawnSync(process.execPath, [MARI, ...resolved, ...out, ...progress], {
    cwd: OUT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 1 << 28,
  });
  writeFileSync(join(dir, "_exit"), `${r.status}\n`);
  writeFileSync(join(dir, "_stdout"), scrub(r.stdout));
  writeFileSync(join(dir, "_stderr"), scrub(r.stderr));
}
for (const name of readdirSync(OUT)) {
  const dir = join(OUT, name);
  if (!statSync(dir).isDirectory()) continue;
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    if (file.endsWith(".json")) {
      const text = readFileSync(path, "utf8");
      try {
        writeFileSync(path, scrub(`${JSON.stringify(normalise(JSON.parse(text)), null, 2)}\n`));
      } catch {
        /* not JSON: keep as written */
      }
    } else if (file.endsWith(".jsonl")) {
      writeFileSync(path, scrub(readFileSync(path, "utf8")));
    } else if (file.endsWith(".md") || file.endsWith(".html") || file.endsWith(".xml")) {
      writeFileSync(
        path,
        scrub(readFileSync(path, "utf8"))
          .replace(/(commit|node|host|platform|config hash)[^<\n|]*(<\/td><td>|\| )?[^<\n|]*/gi, "$1…")
          .replace(/time="[\d.]+"/g, 'time="…"'),
      );
    }
  }
}
console.log(`snapshot written to ${OUT}`);
