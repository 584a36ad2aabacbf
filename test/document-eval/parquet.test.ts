// Parquet slices and dumps (Hugging Face datasets, verl rollouts), written in the test by a real
// writer with LIST and INT64 columns, dictionary pages, several row groups and each codec: scored
// through the built CLI, they give the report.json of their JSONL twins byte for byte, minus paths
// and hashes; bad rows are errors at FILE:ROW.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { comparableReport } from "../support/comparable-report.js";
import { runTask } from "../support/in-process.js";
import { type Codec, HAVE_ZSTD, writeParquet } from "../support/parquet.js";

const tmp = tempDir("mari-parquet-");
afterAll(() => tmp.cleanup());
const SOURCE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
type Row = Record<string, unknown>;

const sliceRows: Row[] = readFileSync(SOURCE, "utf8")
  .trimEnd()
  .split("\n")
  .map((l) => JSON.parse(l) as Row)
  // Evidence as a list (a LIST column), absent for negatives.
  .map((r) => ({ ...r, evidence: r.evidence === null ? null : [r.evidence] }));

/** A dump over the slice: 3 runs, structured and raw-completion rows, invalid evidence, an orphan, a duplicate. */
function dumpRows(): Row[] {
  const rows: Row[] = [];
  let k = 0;
  for (let run = 0; run < 3; run++) {
    for (const c of sliceRows) {
      k++;
      const judgment = k % 4 !== 0 ? c.label : !c.label;
      const ids = judgment ? [1 + (k % 5), 2 + (k % 7)] : [];
      if (k % 11 === 0) {
        rows.push({
          case_id: c.id,
          run,
          completion: `<think>\nSentence [1] and [2].\n</think>\n<answer>\nJudgment: ${judgment ? "yes" : "no"}\nEvidence: [${ids.join(", ")}]\n</answer>`,
        });
      } else {
        rows.push({ case_id: c.id, run, judgment, evidence_sentence_ids: k % 13 === 0 ? [99] : ids, reasoning: `Compare [${1 + (k % 3)}] with [2].` });
      }
    }
  }
  rows.push({ case_id: "not-in-the-slice", run: 0, judgment: true, evidence_sentence_ids: [1], reasoning: "x" });
  rows.push({ ...rows[5]!, reasoning: "a duplicate" });
  return rows;
}

const jsonl = (rows: Row[]) => rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)))).join("\n") + "\n";

const comparable = comparableReport;

/**
 * The eval both sides of a comparison run: report.json and the explorer, two workers; in this
 * process (the reports are the subject; the exit codes and messages are the CLI tests below).
 */
const evalBoth = (slicePath: string, dumpPath: string, out: string, chunkLines?: number) =>
  runTask({ task: "documents", slicePath, dumpPath, formats: ["json", "html"], workers: 2, ...(chunkLines ? { chunkLines } : {}) }, out);

let twinSlice: string;
let twinDump: string;
let twinOut: string;

beforeAll(async () => {
  twinSlice = join(tmp.dir, "slice.jsonl");
  twinDump = join(tmp.dir, "dump.jsonl");
  writeFileSync(twinSlice, jsonl(sliceRows));
  writeFileSync(twinDump, jsonl(dumpRows()));
  twinOut = join(tmp.dir, "twin");
  await evalBoth(twinSlice, twinDump, twinOut);
});

describe("Parquet slices and dumps", () => {
  const codecs: Codec[] = ["SNAPPY", "GZIP", "ZSTD", "UNCOMPRESSED"];
  for (const codec of codecs) {
    it.skipIf(codec === "ZSTD" && !HAVE_ZSTD)(
      `${codec}: the same report.json and cases.jsonl as the JSONL twin (ZSTD needs the zstd program to write)`,
      async () => {
        const slice = join(tmp.dir, `slice-${codec}.parquet`);
        const dump = join(tmp.dir, `dump-${codec}.parquet`);
        writeParquet(slice, sliceRows, { codec, rowGroupSize: 37 });
        writeParquet(dump, dumpRows(), { codec, rowGroupSize: 101 });
        const meta = await parquetMetadataAsync(await asyncBufferFromFile(dump));
        // The read path really meets several row groups and dictionary-encoded pages.
        expect(meta.row_groups.length).toBeGreaterThan(3);
        expect(meta.row_groups[0]!.columns.some((c) => c.meta_data?.dictionary_page_offset !== undefined)).toBe(true);
        expect(meta.row_groups[0]!.columns.every((c) => c.meta_data?.codec === codec)).toBe(true);
        const out = join(tmp.dir, `out-${codec}`);
        await evalBoth(slice, dump, out, 64);
        expect(comparable(out)).toEqual(comparable(twinOut));
        expect(readFileSync(join(out, "cases.jsonl"), "utf8")).toBe(readFileSync(join(twinOut, "cases.jsonl"), "utf8"));
        // The explorer reads the dump's texts from the Parquet rows.
        expect(readFileSync(join(out, "report.html"), "utf8")).toContain("Compare [2] with [2].");
        const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
        expect(report.predictions.sha256).toMatch(/^[0-9a-f]{64}$/);
        expect(report.predictions.sha256).not.toBe(JSON.parse(readFileSync(join(twinOut, "report.json"), "utf8")).predictions.sha256);
      },
    );
  }

  it("names FILE:ROW for a bad slice row and for rejected dump rows", async () => {
    // Labels as strings ("true"/"false" are read as booleans), one that is neither.
    const rows = sliceRows.slice(0, 20).map((r, i) => ({ ...r, label: i === 6 ? "maybe" : String(r.label) }));
    const slice = join(tmp.dir, "bad-slice.parquet");
    writeParquet(slice, rows, { rowGroupSize: 5 });
    // A bad record is left out on its own, named at its row (with --strict it is fatal).
    const strict = await runMari(["eval", slice, "--out", join(tmp.dir, "bad-slice-strict"), "--quiet", "--strict"]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(`${slice}:7: slice error: unusable label "maybe"`);
    const r = await runMari(["eval", slice, "--out", join(tmp.dir, "bad-slice-out"), "--quiet", "--report", "json"]);
    expect(r.stderr).toContain(`${slice}:7: slice error: unusable label "maybe"`);
    expect(JSON.parse(readFileSync(join(tmp.dir, "bad-slice-out", "report.json"), "utf8")).dataset.rejected_records).toBe(1);

    const dump = join(tmp.dir, "bad-dump.parquet");
    writeParquet(
      dump,
      [
        { case_id: sliceRows[0]!.id, judgment: "perhaps" },
        { case_id: sliceRows[1]!.id, judgment: "yes", evidence_sentence_ids: [99] },
      ],
      { rowGroupSize: 1 },
    );
    const out = join(tmp.dir, "bad-dump-out");
    const e = await runMari(["eval", SOURCE, "--predictions", dump, "--out", out, "--quiet", "--report", "json"]);
    expect(e.code, e.stderr).toBe(0);
    const wheres = JSON.parse(readFileSync(join(out, "report.json"), "utf8")).rejection_examples.map(
      (x: { where: string; reason: string }) => `${x.reason}@${x.where}`,
    );
    expect(wheres).toContain(`evidence_out_of_document@${dump}:2`);
    expect(wheres).toContain(`bad_judgment@${dump}:1`);
  });

  it("a damaged Parquet file or one on stdin is an input error, not a crash", async () => {
    const good = join(tmp.dir, "whole.parquet");
    writeParquet(good, sliceRows.slice(0, 10));
    const bytes = readFileSync(good);
    const cut = join(tmp.dir, "cut.parquet");
    writeFileSync(cut, bytes.subarray(0, bytes.length - 40));
    const r = await runMari(["eval", cut, "--out", join(tmp.dir, "cut-out"), "--quiet"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("starts like a Parquet file (PAR1) but cannot be read as one");
    const s = await runMari(["classify", "-"], { input: bytes.toString("latin1") });
    expect(s.code).toBe(2);
    expect(s.stderr).toContain("a Parquet file cannot be read from a stream");
  });

  it("classify reads a Parquet pair corpus as its JSONL twin", async () => {
    const pairs = readFileSync(join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl"), "utf8").trimEnd().split("\n").slice(0, 40);
    const rows = pairs.map((l) => JSON.parse(l) as Row);
    const twin = join(tmp.dir, "pairs.jsonl");
    writeFileSync(twin, jsonl(rows));
    const pq = join(tmp.dir, "pairs.parquet");
    writeParquet(pq, rows, { rowGroupSize: 16 });
    const a = await runMari(["classify", twin]);
    const b = await runMari(["classify", pq]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });
});
