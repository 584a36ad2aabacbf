// The explorer bounds the document text it embeds: past the budget, a case carries no sentences and
// says so (the page names how many documents were left out). In process, on a real eval's files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readDocumentSlice } from "../../src/io/slice.js";
import { buildDocumentExplorer } from "../../src/tasks/document/explorer.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir("mari-text-budget-");
afterAll(cleanup);

describe("explorer document text budget", () => {
  it("leaves out the text of the documents past the budget, and says so", async () => {
    const slicePath = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
    const r = await runMari(["eval", slicePath, "--out", dir, "--report", "json", "--quiet"]);
    expect(r.code).toBe(0);
    const slice = await readDocumentSlice(slicePath);
    const sizes = slice.cases.map((c) => c.sentences.reduce((sum, s) => sum + s.length, 0));
    // Room for the first ten documents exactly.
    const budget = sizes.slice(0, 10).reduce((a, b) => a + b, 0);
    const data = await buildDocumentExplorer({
      outcomes: join(dir, "cases.jsonl"),
      slice,
      dumpPath: join(dir, "lexical.predictions.jsonl"),
      runs: ["0"],
      seed: 0,
      documentChars: budget,
    });
    const carried = data.cases.filter((c) => c.doc!.text_left_out === undefined);
    expect(carried.map((c) => c.id)).toEqual(slice.cases.slice(0, 10).map((c) => c.id));
    const embedded = data.cases.reduce((sum, c) => sum + c.doc!.sentences.reduce((s, t) => s + t.length, 0), 0);
    expect(embedded).toBeLessThanOrEqual(budget);
    const left = data.cases.find((c) => c.doc!.text_left_out !== undefined)!;
    expect(left.doc!.sentences).toEqual([]);
    expect(left.doc!.text_left_out).toBe(slice.cases.find((c) => c.id === left.id)!.sentences.length);
    expect(data.selection).toContain(`The text of ${data.cases.length - 10} documents is left out to keep the page small (it is in the slice).`);
    expect(readFileSync(join(dir, "report.json"), "utf8")).toContain('"task": "documents"');
  });
});
