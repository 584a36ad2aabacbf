// Every task's real report.json conforms to the published schema (run `npm run build` first).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateReport } from "../../src/report/schema.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir();
afterAll(tmp.cleanup);

const data = (...parts: string[]) => join(ROOT, "datasets", ...parts);

const tasks: Array<[string, string[]]> = [
  ["documents", ["eval", data("contradoc/contradoc-160.jsonl"), "--predictions", "DUMP"]],
  ["pairs", ["eval", data("memory-pairs/mari-pairs.jsonl")]],
  [
    "evidence",
    [
      "evidence",
      data("evidence-example/docs.jsonl"),
      "--facts",
      data("evidence-example/facts.jsonl"),
      "--located",
      data("evidence-example/located.jsonl"),
      "--materials",
      data("evidence-example/materials.jsonl"),
    ],
  ],
];

describe("report.json of every task matches the schema", () => {
  it.each(tasks)("%s", async (task, args) => {
    const out = join(tmp.dir, task);
    let finalArgs = args;
    if (args.includes("DUMP")) {
      const dump = join(tmp.dir, "lexical.jsonl");
      const predicted = await runMari(["predict", data("contradoc/contradoc-160.jsonl"), "--judge", "lexical"]);
      expect(predicted.code).toBe(0);
      writeFileSync(dump, predicted.stdout);
      finalArgs = args.map((a) => (a === "DUMP" ? dump : a));
    }
    const result = await runMari([...finalArgs, "--out", out, "--quiet"]);
    expect([0, 1]).toContain(result.code);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.task).toBe(task);
    expect(validateReport(report)).toEqual([]);
    for (const file of ["report.md", "report.html", "report.junit.xml"]) expect(existsSync(join(out, file))).toBe(true);
  });
});
