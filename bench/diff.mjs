#!/usr/bin/env node
// `mari diff` of two 1M-prediction reports (target: at most 2× the floor "read both cases.jsonl and
// JSON.parse every line"). Two dumps of 1,123 runs × the 891 ContraDoc cases, NEW answering a
// seeded share of cases better and some worse than OLD, are scored with `mari eval --report json`;
// then, REPEAT times interleaved: the floor, `mari diff` end to end (diff.json, diff.md and
// diff.html with its case explorer, which reads NEW's slice and both dumps), and the comparison
// alone (diffReports from dist/ with `explorer: false`: both reports and cases read, checked,
// paired, changes and gates). Child processes; CPU seconds (user + sys), wall, peak RSS, load.
// Needs a build. Writes bench/results/diff.json. `--keep` keeps bench/out/diff afterwards and
// reuses the two reports found there (to measure a change against the same inputs).
//   node bench/diff.mjs [--repeat K] [--keep]
import { createWriteStream, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { cpus } from "node:os";
import { join } from "node:path";
import { casesWithSentenceCounts, lcg } from "./lib/dumps.mjs";
import { flag, measureChild, median, ROOT } from "./lib/measure.mjs";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-891.jsonl");
const OUT = join(ROOT, "bench/out/diff");
const MARI = join(ROOT, "bin/mari.js");
const REPEAT = flag("--repeat", 3);
const RUNS = 1123;
const KEEP = process.argv.includes("--keep");
const reuse = KEEP && ["old", "new"].every((name) => existsSync(join(OUT, name, "report.json")));

if (!reuse) {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
}
const cases = await casesWithSentenceCounts(ROOT, SLICE);

/** OLD and NEW dumps in one pass: NEW keeps OLD's answer on most lines and changes it on some cases. */
async function writeDumps() {
  const rand = lcg(2024);
  const outs = [createWriteStream(join(OUT, "old.jsonl")), createWriteStream(join(OUT, "new.jsonl"))];
  // Per case: NEW's chance (in 100) to answer a line differently from OLD.
  const shift = cases.map(() => (rand(4) === 0 ? 30 : 2));
  for (let run = 0; run < RUNS; run++) {
    const blocks = ["", ""];
    cases.forEach((c, i) => {
      const right = rand(10) < 7;
      const judgment = right ? c.label : !c.label;
      const ids = judgment ? [1 + rand(c.n), 1 + rand(c.n)] : [];
      const row = { case_id: c.id, run, judgment, evidence_sentence_ids: ids, reasoning: `Sentence [${1 + rand(c.n)}] decides it.` };
      blocks[0] += `${JSON.stringify(row)}\n`;
      if (rand(100) < shift[i]) {
        row.judgment = !judgment;
        row.evidence_sentence_ids = row.judgment ? [1 + rand(c.n)] : [];
      }
      blocks[1] += `${JSON.stringify(row)}\n`;
    });
    for (const [k, out] of outs.entries()) if (!out.write(blocks[k])) await once(out, "drain");
  }
  for (const out of outs) {
    out.end();
    await once(out, "finish");
  }
}

if (!reuse) await writeDumps();
for (const name of reuse ? [] : ["old", "new"]) {
  await measureChild([
    MARI,
    "eval",
    SLICE,
    "--predictions",
    join(OUT, `${name}.jsonl`),
    "--out",
    join(OUT, name),
    "--report",
    "json",
    "--workers",
    "1",
    "--progress",
    "none",
    "--quiet",
  ]);
}
const oldCases = join(OUT, "old/cases.jsonl");
const newCases = join(OUT, "new/cases.jsonl");

const FLOOR_SCRIPT = `
import { readLineBatches } from ${JSON.stringify(join(ROOT, "dist/io/lines.js"))};
let n = 0;
for (const file of process.argv.slice(1)) for await (const batch of readLineBatches(file)) for (const line of batch) if (line.text) { JSON.parse(line.text); n++; }
console.log(n);
`;
const COMPARE_SCRIPT = `
import { diffReports } from ${JSON.stringify(join(ROOT, "dist/tasks/diff/run.js"))};
const { diff } = await diffReports({ oldPath: process.argv[1], newPath: process.argv[2], explorer: false });
console.log(diff.regressed.length + diff.fixed.length + diff.mixed.length);
`;

const samples = { floor: [], diff: [], compare_only: [] };
for (let k = 0; k < REPEAT; k++) {
  samples.floor.push(await measureChild(["--input-type=module", "-e", FLOOR_SCRIPT, oldCases, newCases]));
  samples.diff.push(await measureChild([MARI, "diff", join(OUT, "old"), join(OUT, "new"), "--out", join(OUT, "diff"), "--quiet"]));
  samples.compare_only.push(await measureChild(["--input-type=module", "-e", COMPARE_SCRIPT, join(OUT, "old"), join(OUT, "new")]));
}
const floor = median(samples.floor);
const diff = median(samples.diff);
const compareOnly = median(samples.compare_only);
const ratio = (m) => (m.cpu_seconds !== null && floor.cpu_seconds ? Number((m.cpu_seconds / floor.cpu_seconds).toFixed(2)) : null);
const result = {
  command: "npm run bench -- diff   (node bench/diff.mjs)",
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version },
  reports: { predictions_each: RUNS * cases.length, runs: RUNS, cases: cases.length, cases_jsonl_bytes: [statSync(oldCases).size, statSync(newCases).size] },
  repeat: REPEAT,
  floor_read_both_cases_jsonl: floor,
  diff_end_to_end: diff,
  diff_without_explorer: compareOnly,
  cpu_ratio_to_floor: { diff_end_to_end: ratio(diff), diff_without_explorer: ratio(compareOnly) },
  target_ratio: 2,
  samples,
};
writeFileSync(join(ROOT, "bench/results/diff.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ floor, diff, compareOnly, ratio: result.cpu_ratio_to_floor }, null, 2));
if (!KEEP) rmSync(OUT, { recursive: true, force: true });
