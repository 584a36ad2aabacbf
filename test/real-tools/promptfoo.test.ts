// A real `promptfoo eval` (the pinned dev dependency, offline: a file:// provider, telemetry and
// update checks off, a temporary HOME) with two providers, two prompts and --repeat 2, written in
// every output form at once. Its JSON and JSONL outputs score alike, every (provider, prompt,
// repeat) its own run; its YAML, text, CSV, HTML and XML outputs are refused with one line naming
// the form and the flag that writes a readable one, before any line is scored.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { comparableReport } from "../support/comparable-report.js";
import { scaled } from "../support/time-limits.js";

const tmp = tempDir("mari-promptfoo-");
afterAll(() => tmp.cleanup());
const file = (name: string) => join(tmp.dir, name);
const FORMS = ["json", "jsonl", "yaml", "txt", "csv", "html", "xml"];

const PROVIDER = `export default class Canned {
  constructor(options) { this.flip = options?.config?.flip ?? false; }
  id() { return this.flip ? "canned-b" : "canned-a"; }
  async callApi(prompt, context) {
    let h = 7;
    for (const ch of String(context?.vars?.case_id) + prompt + Math.random()) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    const judgment = (h & 8) !== 0;
    const ids = judgment ? [1 + (h % 4), 2 + (h % 5)] : [];
    return { output: JSON.stringify({ judgment, evidence_sentence_ids: ids, reasoning: "Compare [1] with [2]." }) };
  }
}
`;

describe("a real promptfoo output", () => {
  beforeAll(() => {
    const cases = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 6);
    writeFileSync(file("slice.jsonl"), `${cases.join("\n")}\n`);
    writeFileSync(file("provider.mjs"), PROVIDER);
    const tests = cases.map((l) => {
      const c = JSON.parse(l) as { id: string; text: string };
      return `  - vars:\n      case_id: ${JSON.stringify(c.id)}\n      text: ${JSON.stringify(c.text.slice(0, 300))}\n`;
    });
    writeFileSync(
      file("promptfooconfig.yaml"),
      'prompts:\n  - "Does this contradict itself? {{text}}"\n  - "Find a contradiction: {{text}}"\n' +
        "providers:\n  - id: file://provider.mjs\n  - id: file://provider.mjs\n    config:\n      flip: true\n" +
        `tests:\n${tests.join("")}`,
    );
    const home = file("home");
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, "node_modules/promptfoo/dist/src/entrypoint.js"),
        "eval",
        "-c",
        file("promptfooconfig.yaml"),
        "--repeat",
        "2",
        "--no-cache",
        "--no-progress-bar",
        "-o",
        ...FORMS.map((f) => file(`out.${f}`)),
      ],
      {
        cwd: tmp.dir,
        encoding: "utf8",
        timeout: scaled(300_000),
        env: {
          ...process.env,
          HOME: home,
          PROMPTFOO_CONFIG_DIR: file("promptfoo-config"),
          PROMPTFOO_DISABLE_TELEMETRY: "1",
          PROMPTFOO_DISABLE_UPDATE: "1",
          PROMPTFOO_DISABLE_SHARING: "1",
          NO_COLOR: "1",
        },
      },
    );
    if (run.status !== 0) throw new Error(`promptfoo eval failed (${run.status}): ${run.stderr.slice(-3000)}${run.stdout.slice(-2000)}`);
  }, scaled(400_000));

  it("JSON and JSONL: two providers × two prompts × two repeats are eight runs, scored alike", async () => {
    for (const form of ["json", "jsonl"]) {
      const r = await runMari(["eval", file("slice.jsonl"), "--predictions", file(`out.${form}`), "--out", file(`o-${form}`), "--report", "json", "--quiet"]);
      expect(r.code, r.stderr).toBe(0);
    }
    const report = JSON.parse(readFileSync(file("o-json/report.json"), "utf8"));
    // Each (provider, prompt) pair and repeat is a run of its own: 6 cases in each, none shared.
    expect(report.predictions.runs).toHaveLength(8);
    expect(new Set(report.predictions.runs).size).toBe(8);
    for (const run of report.predictions.runs) expect(report.runs[run].cases).toBe(6);
    expect(report.predictions.lines).toBe(48);
    expect(report.rejections.duplicate_prediction ?? 0).toBe(0);
    const strip = (dir: string) => ({ ...(comparableReport(dir) as object), rejection_examples: undefined });
    expect(strip(file("o-jsonl"))).toEqual(strip(file("o-json")));
  });

  const refusals: Record<string, string> = {
    yaml: "a promptfoo output in YAML or text (-o out.yaml / out.txt)",
    txt: "a promptfoo output in YAML or text (-o out.yaml / out.txt)",
    csv: "a promptfoo output in CSV (-o out.csv)",
    html: "a promptfoo output in HTML (-o out.html)",
    xml: "a promptfoo output in XML (-o out.xml)",
  };
  for (const [form, message] of Object.entries(refusals)) {
    it(`${form}: refused in one line naming the form and -o out.json / out.jsonl`, async () => {
      const r = await runMari(["eval", file("slice.jsonl"), "--predictions", file(`out.${form}`), "--out", file(`o-${form}`), "--quiet"]);
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`out.${form}: ${message}`);
      expect(lines[0]).toContain("-o out.json or -o out.jsonl");
    });
  }
});
