// mari.config.json scoped by task. The example of docs/reports.md, left in the
// working directory, serves documents, pairs and evidence runs, each with its own gates; unknown
// keys and metrics the task does not have are exit 2 naming the key and the file; the schema is
// published beside the report schema. Real child processes, real files.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configJsonSchema } from "../../src/gates/run-config.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-config-layout-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const PAIRS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
const EVIDENCE = join(ROOT, "datasets/evidence-example");
const read = (dir: string) => JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
const gateNames = (dir: string) => read(dir).gates.map((g: { name: string }) => g.name);

/** The first ```json block of the config section of docs/reports.md. */
function docsExample(): string {
  const md = readFileSync(join(ROOT, "docs/reports.md"), "utf8");
  const section = md.slice(md.indexOf("## Config file: `mari.config.json`"));
  return /```json\n([\s\S]*?)```/.exec(section)![1]!;
}

function project(name: string, config: string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mari.config.json"), config);
  return dir;
}

describe("mari.config.json scoped by task", () => {
  it("the docs example serves all three tasks, each with only its own gates", async () => {
    const cwd = project("docs", docsExample());
    // The example's baseline: a previous run of the same judge (made without the config).
    writeFileSync(join(cwd, "empty.json"), "{}");
    const base = await runMari(["eval", SLICE, "--config", "empty.json", "--out", "baselines/main", "--quiet"], { cwd });
    expect(base.code, base.stderr).toBe(0);
    const docs = await runMari(["eval", SLICE, "--out", "docs-out", "--quiet"], { cwd });
    expect(docs.code, docs.stderr).toBe(0);
    expect(gateNames(join(cwd, "docs-out"))).toEqual(["accuracy>=0.5", "localization_recall>=0.1", "max_drop macro_f1=0.02", "max_invalid_rate=0.05"]);
    const pairs = await runMari(["eval", PAIRS, "--out", "pairs-out", "--quiet"], { cwd });
    expect(pairs.code, pairs.stderr).not.toBe(2);
    const pairGates = gateNames(join(cwd, "pairs-out"));
    expect(pairGates.slice(0, 2)).toEqual(["update_recall>=0.6", "revision_cost<=0.5"]);
    expect(pairGates.join(" ")).not.toMatch(/localization|max_drop|accuracy>=/);
    const evidence = await runMari(["evidence", join(EVIDENCE, "docs.jsonl"), "--facts", join(EVIDENCE, "facts.jsonl"), "--out", "evidence-out", "--quiet"], {
      cwd,
    });
    expect(evidence.code, evidence.stderr).toBe(0);
    expect(gateNames(join(cwd, "evidence-out"))).toEqual(["accepted_rate>=0.3", "max_invalid_rate=1"]);
  });

  it("a metric the task does not have is exit 2 naming the file and the key", async () => {
    const cwd = project("wrong-metric", JSON.stringify({ pairs: { gate: ["localization_recall>=0.3"] } }));
    const r = await runMari(["eval", PAIRS, "--quiet"], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `config ${join(cwd, "mari.config.json")}: pairs.gate "localization_recall>=0.3": unknown metric "localization_recall" for a pairs report`,
    );
  });

  it("the old flat layout and unknown keys are exit 2 naming the key and the file", async () => {
    const flat = project("flat", JSON.stringify({ gate: ["accuracy>=0.6"], baseline: "b" }));
    const r = await runMari(["evidence", join(EVIDENCE, "docs.jsonl"), "--facts", join(EVIDENCE, "facts.jsonl"), "--quiet"], { cwd: flat });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`config ${join(flat, "mari.config.json")}: "gate" belongs in a task section`);
    const unknown = project("unknown", JSON.stringify({ evidence: { treshold: 0.4 } }));
    const u = await runMari(["eval", SLICE, "--quiet"], { cwd: unknown });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('unknown key "treshold" in "evidence"');
  });

  it("is published, in step with its definition, at schema/config.schema.json", async () => {
    const published = JSON.parse(readFileSync(join(ROOT, "schema/config.schema.json"), "utf8"));
    expect(published).toEqual(await configJsonSchema());
    expect(Object.keys(published.properties)).toEqual(expect.arrayContaining(["documents", "pairs", "evidence", "out", "report"]));
    expect(published.additionalProperties).toBe(false);
  });
});
