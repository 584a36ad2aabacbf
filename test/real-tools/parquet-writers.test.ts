// Files as the real tools write them, in their defaults (test/real-tools/write_files.py, run once):
// pyarrow, pandas (pyarrow and fastparquet engines), polars, duckdb COPY and HF datasets each write
// the shipped slice and a dump mixing the three shapes over three runs; pandas and HF datasets also
// write them with to_json(lines=True), every column on every row, nulls included. Each gives its
// JSONL twin's report.json (minus paths and hashes) and cases.jsonl exactly.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { comparableReport } from "../support/comparable-report.js";
import { runTask } from "../support/in-process.js";
import { realToolsRequired, venvPython } from "../support/python.js";
import { scaled } from "../support/time-limits.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const WRITERS = ["pyarrow", "pandas-pyarrow", "pandas-fastparquet", "polars", "duckdb", "datasets"].map((w) => `${w}.parquet`);
const TO_JSON = ["pandas.jsonl", "datasets.jsonl"];

const tmp = tempDir("mari-real-writers-");
afterAll(() => tmp.cleanup());
const file = (name: string) => join(tmp.dir, name);

const evaluate = (slicePath: string, dumpPath: string, out: string) => runTask({ task: "documents", slicePath, dumpPath, formats: ["json"], workers: 2 }, out);

describe.runIf(realToolsRequired())("files written by the real tools", () => {
  beforeAll(async () => {
    const python = spawnSync(venvPython(), [join(ROOT, "test/real-tools/write_files.py"), SLICE, tmp.dir], { encoding: "utf8", timeout: scaled(300_000) });
    if (python.status !== 0) throw new Error(`write_files.py failed: ${python.stderr}`);
    await evaluate(file("slice.twin.jsonl"), file("dump.twin.jsonl"), file("twin"));
  }, scaled(400_000));

  const twinCases = () => readFileSync(file("twin/cases.jsonl"), "utf8");

  for (const written of [...WRITERS, ...TO_JSON]) {
    it(`${written}: the dump mixing shapes scores as its JSONL twin`, async () => {
      const out = file(`dump-${written}`);
      await evaluate(file("slice.twin.jsonl"), file(`dump.${written}`), out);
      expect(comparableReport(out)).toEqual(comparableReport(file("twin")));
      expect(readFileSync(join(out, "cases.jsonl"), "utf8")).toBe(twinCases());
    });

    it(`${written}: the slice reads as its JSONL twin`, async () => {
      const out = file(`slice-${written}`);
      await evaluate(file(`slice.${written}`), file("dump.twin.jsonl"), out);
      expect(comparableReport(out)).toEqual(comparableReport(file("twin")));
      expect(readFileSync(join(out, "cases.jsonl"), "utf8")).toBe(twinCases());
    });
  }

  it("to_json(lines=True) really wrote nulls for the absent fields", () => {
    const lines = readFileSync(file("dump.pandas.jsonl"), "utf8").trimEnd().split("\n");
    expect(lines[0]).toContain('"prediction":null');
    expect(lines.filter((l) => l.includes('"judgment":null')).length).toBeGreaterThan(50);
  });

  it("a judgment pandas turned into 1.0/0.0 is refused with where it comes from and how to avoid it", async () => {
    const out = file("floats");
    const r = await runMari(["eval", file("slice.twin.jsonl"), "--predictions", file("dump.pandas-floats.jsonl"), "--out", out, "--report", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    const example = report.rejection_examples.find((e: { reason: string }) => e.reason === "bad_judgment");
    expect(example.message).toMatch(/^judgment (1\.0|0\.0) is not a boolean/);
    expect(example.message).toContain("pandas writes 1.0/0.0 for a true/false column with missing values");
    expect(example.message).toContain(".astype('boolean')");
  });

  it("a binary column passes through as base64, timestamps at their stored precision", async () => {
    const out = file("pass-through");
    const r = await runMari(["eval", file("pass-through.parquet"), "--out", out, "--report", "json", "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    const caseLine = readFileSync(join(out, "cases.jsonl"), "utf8")
      .split("\n")
      .find((l) => l.includes('"fields"'))!;
    expect(JSON.parse(caseLine).fields).toEqual({
      raw: Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString("base64"),
      at_ms: "2024-05-06T07:08:09.123Z",
      at_us: "2024-05-06T07:08:09.123456Z",
      at_ns: "2024-05-06T07:08:09.123456789Z",
    });
  });
});
