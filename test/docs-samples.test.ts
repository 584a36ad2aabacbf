// Every output sample in docs/ marked `<!-- sample: MODE: COMMAND -->` is produced again and compared
// with what the tool prints: `exact` (stdout is the fenced block that follows, line for line) or
// `line` (each line of the block is a line of stdout). COMMAND is a shell line, or "the sh block
// above" for the fenced sh block before the marker; it runs in a directory holding the shipped
// datasets, with `mari` on PATH. Also: the lexical baseline's table in docs/judges.md is what
// `mari eval` reports on each shipped slice.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, ROOT, runMari, tempDir, MARI_SHELL } from "./support/cli.js";
import { SYNC_CHILD } from "./support/children.js";

interface Sample {
  file: string;
  mode: "exact" | "line";
  command: string;
  expected: string[];
}

/** The marked samples of a Markdown file. */
function samplesOf(file: string): Sample[] {
  const text = readFileSync(join(ROOT, "docs", file), "utf8");
  const out: Sample[] = [];
  for (const m of text.matchAll(/<!-- sample: (exact|line): (.*?) -->\n```[a-z]*\n([\s\S]*?)```/g)) {
    let command = m[2]!;
    if (command === "the sh block above") {
      const before = text.slice(0, m.index);
      const blocks = [...before.matchAll(/```sh\n([\s\S]*?)```/g)];
      command = blocks
        .at(-1)![1]!
        .replace(/\\\n\s*/g, "")
        .split("\n")
        .map((line) => line.replace(/\s+#\s.*$/, ""))
        .filter((line) => line.trim() !== "")
        .join("\n");
    }
    out.push({ file, mode: m[1] as Sample["mode"], command, expected: m[3]!.replace(/\n$/, "").split("\n") });
  }
  return out;
}

const samples = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .flatMap(samplesOf);
const { dir, cleanup } = tempDir("mari-docs-samples-");
afterAll(cleanup);
const bin = join(dir, "bin");
mkdirSync(bin);
writeFileSync(join(bin, "mari"), `#!/bin/sh\nexec ${MARI_SHELL} "$@"\n`);
chmodSync(join(bin, "mari"), 0o755);

describe("documented output samples", () => {
  it("finds the marked samples", () => {
    expect(samples.map((s) => s.file)).toEqual(expect.arrayContaining(["classifier.md", "judges.md", "reports.md"]));
  });

  samples.forEach((sample, k) => {
    it(`${sample.file}: ${sample.command.split("\n").at(-1)}`, () => {
      const cwd = join(dir, `s${k}`);
      mkdirSync(cwd);
      symlinkSync(join(ROOT, "datasets"), join(cwd, "datasets"));
      const r = spawnSync("sh", ["-c", sample.command], {
        ...SYNC_CHILD,
        cwd,
        env: childEnv({ PATH: `${bin}:${process.env["PATH"]}`, NO_COLOR: "1" }),
        encoding: "utf8",
      });
      const printed = r.stdout.replace(/\n$/, "").split("\n");
      if (sample.mode === "exact") expect(printed).toEqual(sample.expected);
      else for (const line of sample.expected) expect(printed).toContain(line);
    });
  });

  it("judges.md: the lexical baseline's table is what mari eval reports", async () => {
    const doc = readFileSync(join(ROOT, "docs", "judges.md"), "utf8");
    const f = (x: number) => x.toFixed(3);
    for (const slice of ["contradoc-160", "contradoc-clean", "contradoc-891"]) {
      const out = join(dir, `lexical-${slice}`);
      const r = await runMari(["eval", join(ROOT, "datasets/contradoc", `${slice}.jsonl`), "--out", out, "--report", "json", "--quiet", "--progress", "none"]);
      expect(r.code).toBe(0);
      const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      const m = report.metrics;
      const ci = report.ci;
      const row =
        `| ${slice} | ${m.cases} (${m.tp + m.fn}) | ${f(m.accuracy)} [${f(ci.accuracy.low)}, ${f(ci.accuracy.high)}] | ` +
        `${f(m.macro_f1)} [${f(ci.macro_f1.low)}, ${f(ci.macro_f1.high)}] | ${f(m.positive_precision)} | ${f(m.positive_recall)} | ` +
        `${f(m.localization_recall)} | ${f(m.localization_precision)} | ${f(m.format_valid_rate)} | ${m.tp} ${m.fp} ${m.fn} ${m.tn} |`;
      expect(doc).toContain(row);
    }
  });
});
