// A document eval's numbers must not depend on the order a dump's lines arrive in
// (a batch output file is in completion order). Headline means, spread, breakdowns, SetCons and the
// bootstrap interval were summed in order of first appearance and differed in the last bit
// (0.8249999999999998 vs 0.8250000000000001); they are summed in run order now. Property: any
// permutation of a dump's lines gives the same report.json bytes, apart from what names the line
// order by definition: the dump's and cases.jsonl's hashes (cases.jsonl records line numbers) and
// the run listing, which stays in order of first appearance.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { evaluateDocuments } from "../../src/index.js";
import { tempDir } from "../support/cli.js";
import { DOC_SLICE, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-line-order-");
afterAll(() => tmp.cleanup());

const slice = firstLines(DOC_SLICE, 40);
const records = slice.map((l) => JSON.parse(l) as { id: string; label: boolean });
const slicePath = write(tmp.dir, "slice.jsonl", `${slice.join("\n")}\n`);
// Integer keys out of order, a key with a leading zero and plain strings: run order is by key.
const RUN_KEYS = ["3", "1", "10", "2", "07", "b", "a"];
let n = 0;

/** report.json as bytes, without the hashes that name the line order and with the run listings (`predictions.runs`, `runs`) sorted. */
async function reportBytes(lines: string[]): Promise<string> {
  const dir = join(tmp.dir, `r${n++}`);
  const path = write(tmp.dir, `dump-${n}.jsonl`, `${lines.join("\n")}\n`);
  await evaluateDocuments({ slicePath, dumpPath: path, outDir: dir, formats: ["json"], workers: 1, bootstrap: 50 });
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  delete report.system;
  delete report.elapsed_seconds;
  delete report.cases_xxh64;
  delete report.predictions.sha256;
  delete report.predictions.path;
  report.predictions.runs.sort();
  report.runs = Object.fromEntries(Object.entries(report.runs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify(report);
}

it("any permutation of a dump's lines gives the same report.json", async () => {
  const line = fc
    .record({ run: fc.constantFrom(...RUN_KEYS), caseIndex: fc.nat(records.length - 1), positive: fc.boolean(), evidence: fc.integer({ min: 1, max: 3 }) })
    .map(({ run, caseIndex, positive, evidence }) =>
      JSON.stringify({ case_id: records[caseIndex]!.id, run, judgment: positive, evidence_sentence_ids: positive ? [evidence] : [], reasoning: "" }),
    );
  // One line per (case, run) at most: a duplicate's first line wins, which is about order by design.
  const dump = fc.uniqueArray(line, { minLength: 2, maxLength: 120, selector: (l) => JSON.stringify([JSON.parse(l).case_id, JSON.parse(l).run]) });
  await fc.assert(
    fc.asyncProperty(dump, fc.infiniteStream(fc.nat()), async (lines, draws) => {
      const shuffled = [...lines];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = draws.next().value % (i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      expect(await reportBytes(shuffled)).toBe(await reportBytes(lines));
    }),
    { numRuns: 25, seed: 25 },
  );
});
