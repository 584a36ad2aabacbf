// The library's examples (docs/library.md), run against the package entry point, and its export
// list: what docs/library.md names is what the entry point exports, no more, no less.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as mari from "../src/index.js";
import { ROOT, runMari, tempDir } from "./support/cli.js";
import { SYNC_CHILD } from "./support/children.js";

describe("package entry point (docs/library.md example)", () => {
  it("splits, tags, aligns, validates and rewards as docs/library.md shows", () => {
    const sentences = mari.splitSentences("The plant opened in 2001. It closed in 1999. Workers were paid well.");
    expect(mari.tagSentences(sentences)).toBe("[1] The plant opened in 2001. [2] It closed in 1999. [3] Workers were paid well.");
    const gold = mari.alignEvidence(sentences, ["It closed in 1999."]);
    expect(gold).toEqual([2]);
    const assessment = mari.validateDocumentContradiction(sentences.length, true, [1, 2], "Compare [1]-[2].");
    expect(mari.documentContradictionRewards(assessment, true, gold, true)).toEqual({
      accuracy: 2,
      referenceCoverage: 0.6666666666666666,
      format: 1,
      matchedEvidenceCount: 1,
      goldEvidenceCount: 1,
    });
    expect(() => mari.validateDocumentContradiction(3, false, [1], "")).toThrow(mari.DocumentContradictionError);
  });

  it("classifies the example's pair and exposes the evidence functions", () => {
    expect(mari.classify("Cache entries expire after a 30 minute TTL.", "Cache entries expire after a 10 minute TTL.", mari.DEFAULT_CONFIG)).toEqual({
      class: "update",
      reason: 'value swap: "10" -> "30"',
    });
    for (const name of [
      "parseFacts",
      "documentSections",
      "validateArtifactEvidence",
      "validateLocatedEvidence",
      "evidenceDependencies",
      "assessDependencies",
    ]) {
      expect(typeof (mari as Record<string, unknown>)[name]).toBe("function");
    }
  });
});

describe("task entry points (what `mari eval` is, as a function)", () => {
  it("evaluateDocuments writes the same report as the CLI and prints nothing", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
      const cases = readFileSync(slice, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: string; label: boolean });
      // Judgment right for every third case only, with one cited sentence: a dump with real errors.
      const dump = join(dir, "dump.jsonl");
      writeFileSync(
        dump,
        cases
          .map((c, i) => JSON.stringify({ case_id: c.id, judgment: i % 3 === 0 ? c.label : !c.label, evidence_sentence_ids: [1], reasoning: "See [1]." }))
          .join("\n") + "\n",
      );
      const logged: string[] = [];
      const observer = { progress: () => ({ tick() {}, done() {} }), log: (m: string) => void logged.push(m), note: (m: string) => void logged.push(m) };
      const outcome = await mari.evaluateDocuments({
        slicePath: slice,
        dumpPath: dump,
        outDir: join(dir, "lib"),
        gates: [mari.parseGateFlag("accuracy>=0.9")],
        observer,
      });
      const cli = await runMari(["eval", slice, "--predictions", dump, "--out", join(dir, "cli"), "--gate", "accuracy>=0.9", "--quiet"]);
      const fromCli = JSON.parse(readFileSync(join(dir, "cli/report.json"), "utf8"));
      const expectedAccuracy = cases.filter((_, i) => i % 3 === 0).length / cases.length;
      expect(outcome.report.metrics.accuracy).toBe(expectedAccuracy);
      expect(fromCli.metrics).toEqual(outcome.report.metrics);
      expect(outcome.report.gates.map((g) => g.passed)).toEqual([false]);
      expect(cli.code).toBe(1);
      expect(readFileSync(join(dir, "lib/cases.jsonl"), "utf8")).toBe(readFileSync(join(dir, "cli/cases.jsonl"), "utf8"));
      expect(logged).toEqual([]);
      expect(outcome.inputErrors).toEqual([]);
    } finally {
      cleanup();
    }
  });
});

describe("one process, many runs (a training loop calling the library)", () => {
  it("a report directory read as one call's baseline may be written by a later call, not by that call", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
      const first = join(dir, "first");
      const settings = { slicePath: slice, bootstrap: 0, formats: ["json" as const] };
      await mari.evaluateDocuments({ ...settings, outDir: first });
      const compared = await mari.evaluateDocuments({ ...settings, outDir: join(dir, "second"), baselinePath: join(first, "report.json") });
      expect(compared.report.baseline?.matched_cases).toBe(160);
      // The same call may not write over the cases.jsonl it reads as its baseline ...
      await expect(mari.evaluateDocuments({ ...settings, outDir: first, baselinePath: join(first, "report.json") })).rejects.toThrow(
        /cases\.jsonl: is also an input of this run/,
      );
      // ... but a later call that does not read it may (the inputs of a call are its own).
      const again = await mari.evaluateDocuments({ ...settings, outDir: first });
      expect(again.report.metrics).toEqual(compared.report.metrics);
      expect(readFileSync(join(first, "report.json"), "utf8")).toContain('"cases_xxh64"');
    } finally {
      cleanup();
    }
  });
});

describe("docs/library.md: the task-function example", () => {
  it("runs as written (against the built package) and prints the accuracy, the gate and the files", async () => {
    const readme = readFileSync(join(ROOT, "docs/library.md"), "utf8");
    const block = /```ts\n(import \{ evaluateDocuments[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const { dir, cleanup } = tempDir();
    try {
      symlinkSync(join(ROOT, "datasets"), join(dir, "datasets"));
      const code = block!.replace('from "mari"', `from ${JSON.stringify(pathToFileURL(join(ROOT, "dist/index.js")).href)}`);
      const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], { ...SYNC_CHILD, cwd: dir, encoding: "utf8" });
      expect(run.stderr).toBe("");
      const report = JSON.parse(readFileSync(join(dir, "mari-report/report.json"), "utf8"));
      const [accuracy, passed] = run.stdout.trim().split(" ");
      expect(Number(accuracy)).toBe(report.metrics.accuracy);
      expect(passed).toBe(String(report.metrics.accuracy >= 0.5));
      expect(run.stdout).toContain(join("mari-report", "report.json"));
    } finally {
      cleanup();
    }
  });
});

describe("the export list", () => {
  it("is the names docs/library.md lists, each once", async () => {
    const page = readFileSync(join(ROOT, "docs/library.md"), "utf8");
    const table = page.slice(page.indexOf("## What is exported"));
    const listed = table
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| area"))
      .flatMap((line) => [...line.split("|")[2]!.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!));
    expect(new Set(listed).size, "a name listed twice").toBe(listed.length);
    // The built package, as a user imports it (types are not values: they are not counted here).
    const built = await import(pathToFileURL(join(ROOT, "dist/index.js")).href);
    expect(Object.keys(built).sort()).toEqual([...listed].sort());
    expect(Object.keys(mari).sort()).toEqual([...listed].sort());
  });
});
