// Gates, config file and report files through the real CLI (run `npm run build` first).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateReport } from "../../src/report/schema.js";
import { runMari, tempDir } from "../support/cli.js";

const tmp = tempDir();
afterAll(tmp.cleanup);

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
let slice = "";
let dump = "";

beforeAll(() => {
  slice = join(tmp.dir, "slice.jsonl");
  dump = join(tmp.dir, "dump.jsonl");
  writeFileSync(
    slice,
    jsonl([
      { id: "p1", sentences: ["a.", "b.", "c."], label: true, gold_sentence_ids: [2] },
      { id: "p2", sentences: ["a.", "b."], label: true, gold_sentence_ids: [1] },
      { id: "n1", sentences: ["a.", "b."], label: false },
      { id: "n2", sentences: ["a."], label: false },
    ]),
  );
  // 3 of 4 correct; one format-invalid line (bad judgment) for n2.
  writeFileSync(
    dump,
    jsonl([
      { case_id: "p1", judgment: true, evidence_sentence_ids: [2] },
      { case_id: "p2", judgment: false },
      { case_id: "n1", judgment: false },
      { case_id: "n2", judgment: "maybe" },
    ]),
  );
});

function project(name: string, config?: unknown): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, "mari.config.json"), JSON.stringify(config));
  return dir;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));

describe("gates through the CLI", () => {
  it("takes gates from mari.config.json in the working directory (exit 1 on failure)", async () => {
    const cwd = project("config-fail", { report: ["json", "junit"], documents: { gate: ["accuracy>=0.9"], max_invalid_rate: "count:0" } });
    const result = await runMari(["eval", slice, "--predictions", dump, "--progress", "plain"], { cwd });
    expect(result.code).toBe(1);
    const report = readJson(join(cwd, "mari-report/report.json"));
    expect(validateReport(report)).toEqual([]);
    expect(report.gates.map((g: { name: string; passed: boolean }) => [g.name, g.passed])).toEqual([
      ["accuracy>=0.9", false],
      ["max_invalid_count=0", false],
    ]);
    const junit = readFileSync(join(cwd, "mari-report/report.junit.xml"), "utf8");
    expect(junit.match(/<failure /g)).toHaveLength(2);
    expect(result.stdout).toContain("FAIL accuracy>=0.9");
    expect(result.stderr).toMatch(/done\n/);
    expect(result.stdout).not.toMatch(/done\n/);
  });

  it("lets flags win over the config file (exit 0)", async () => {
    const cwd = project("config-override", { documents: { gate: ["accuracy>=0.9"], max_invalid_rate: 0.25 } });
    const result = await runMari(["eval", slice, "--predictions", dump, "--gate", "accuracy>=0.75", "--quiet", "--progress", "none"], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    const report = readJson(join(cwd, "mari-report/report.json"));
    expect(report.gates).toEqual([
      { name: "accuracy>=0.75", metric: "accuracy", kind: "min", threshold: 0.75, value: 0.75, passed: true },
      expect.objectContaining({ name: "max_invalid_rate=0.25", passed: true, value: 0.25 }),
    ]);
    expect(report.system.config_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("rejects a gate on an unknown metric, a bad config or a bad gate with exit 2", async () => {
    const cwd = project("plain");
    const typo = await runMari(["eval", slice, "--predictions", dump, "--gate", "acuracy>=0.5", "--quiet", "--progress", "none"], { cwd });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown metric "acuracy".*did you mean "accuracy"\?/);
    const badConfig = project("bad-config", { documents: { gates: ["accuracy>=0.5"] } });
    const bad = await runMari(["eval", slice, "--predictions", dump], { cwd: badConfig });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown key "gates" in "documents"');
    const badFlag = await runMari(["eval", slice, "--predictions", dump, "--max-invalid-rate", "2.5"], { cwd });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--max-invalid-rate "2.5"');
    const badFormat = await runMari(["eval", slice, "--predictions", dump, "--report", "json,pdf"], { cwd });
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain('unknown format "pdf"');
  });
});
