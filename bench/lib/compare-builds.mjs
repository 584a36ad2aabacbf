#!/usr/bin/env node
// Two builds of mari side by side on the eval bench's dumps (bench/eval.mjs writes them into
// bench/out): `--base DIR` (a copy of bin/ + dist/ from before a change, as for
// bench/lib/check-identical.mjs) against this tree, `mari eval --workers 1 --report json`, pairs
// interleaved so that a shared machine slows both alike; medians of the CPU seconds (user + sys).
// The GRPO slice's compiled form is warm in the cache for this tree (a build without the cache
// reads the slice every run). Prints the figures; writes nothing.
//   node bench/lib/compare-builds.mjs --base DIR [--repeat K]
import { join } from "node:path";
import { flag, measureChild, median, ROOT } from "./measure.mjs";

const base = process.argv[process.argv.indexOf("--base") + 1];
const REPEAT = flag("--repeat", 3);
const OUT = join(ROOT, "bench/out");
const sets = {
  million: [join(ROOT, "datasets/contradoc/contradoc-891.jsonl"), join(OUT, "eval-dump.jsonl")],
  grpo: [join(OUT, "grpo-slice.jsonl"), join(OUT, "grpo-dump.jsonl")],
};
for (const [name, [slice, dump]] of Object.entries(sets)) {
  const samples = { before: [], after: [] };
  for (let k = 0; k < REPEAT; k++) {
    for (const [side, bin] of [
      ["before", base],
      ["after", ROOT],
    ]) {
      const args = [join(bin, "bin/mari.js"), "eval", slice, "--predictions", dump, "--out", join(OUT, `compare-${side}`), "--workers", "1"];
      samples[side].push(await measureChild([...args, "--report", "json", "--quiet", "--progress", "none"]));
    }
  }
  const cpu = (side) => samples[side].map((s) => s.cpu_seconds);
  console.log(
    JSON.stringify({
      [name]: {
        before_cpu_seconds: cpu("before"),
        after_cpu_seconds: cpu("after"),
        before_median: median(samples.before).cpu_seconds,
        after_median: median(samples.after).cpu_seconds,
      },
    }),
  );
}
