// A report.html over more (case, run) units than the explorer carries: every failing case is on the
// page, the rest is a sample, and the page says so and where every case is.
import { readFileSync, writeFileSync } from "node:fs";
import { documentCaseRecords } from "../support/cases.js";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { readJsonl } from "../support/jsonl.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

describe("explorer selection cap", () => {
  it("carries the failures and a seeded sample, and says what was left out", async () => {
    const { dir, cleanup } = tempDir();
    try {
      expect((await runMari(["eval", SLICE, "--out", join(dir, "lex"), "--report", "json", "--quiet"])).code).toBe(0);
      const lexical = readJsonl(join(dir, "lex", "lexical.predictions.jsonl"));
      // 130 identical runs: cap = floor(20000 / 130) = 153 cases of 160.
      const runs = 130;
      const cap = 153;
      const lines = Array.from({ length: runs }, (_, run) => lexical.map((l) => JSON.stringify({ ...l, run }))).flat();
      writeFileSync(join(dir, "dump.jsonl"), lines.join("\n") + "\n");
      expect((await runMari(["eval", SLICE, "--predictions", join(dir, "dump.jsonl"), "--out", join(dir, "o"), "--report", "json,html", "--quiet"])).code).toBe(
        0,
      );
      const html = readFileSync(join(dir, "o", "report.html"), "utf8");
      const data = JSON.parse(/<script type="application\/json" id="mari-explorer-data">(.*?)<\/script>/s.exec(html)![1]!);
      const cases = (await documentCaseRecords(join(dir, "o", "cases.jsonl"))).filter((l) => l["run"] === "0");
      const failing = cases.filter((l) => !l["judgment_correct"] || !l["format_valid"] || l["localization_hit"] === false).map((l) => l["case_id"]);
      expect(data.total).toBe(160);
      expect(data.shown).toBe(cap);
      const shown = data.cases.map((c: { id: string }) => c.id);
      const failingShown = Math.min(cap, failing.length);
      expect(shown.filter((id: string) => failing.includes(id))).toEqual(failing.slice(0, cap));
      expect(data.selection).toBe(
        `${cap} of 160 cases are shown (cap ${cap}): ${failingShown} of ${failing.length} failing cases${failing.length > cap ? " (the first ones, in input order)" : ""}, and ${cap - failingShown} of ${160 - failing.length} passing cases sampled with seed 0.`,
      );
      expect(data.rest).toBe("cases.jsonl beside this page");
      expect(data.cases[0].doc.runs).toHaveLength(runs);
      expect(data.cases[0].doc.runs[0].reasoning).toBe(lexical.find((l) => l["case_id"] === data.cases[0].id)!["reasoning"]);
    } finally {
      cleanup();
    }
  });
});
