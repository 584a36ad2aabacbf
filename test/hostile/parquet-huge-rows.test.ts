// Small Parquet files whose rows decode to hundreds of megabytes,
// written by the real pyarrow and read through the built CLI under /usr/bin/time -v. A row under
// the line bound (MAX_LINE_BYTES) is read and judged like any other; a row or page that would
// reach it is `FILE…: … 268435456 …`, exit 2, never exit 3 or a stack trace, and a page over the
// bound is refused before it is inflated (the child's peak memory stays far below the row's size).
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINE_BYTES } from "../../src/core/limits.js";
import { endWithTest } from "../support/children.js";
import { childEnv, MARI_COMMAND, ROOT, tempDir } from "../support/cli.js";
import { realToolsRequired, venvPython } from "../support/python.js";
import { scaled } from "../support/time-limits.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const IDS = ["3489738220_3", "3489825764_3", "3488771834_m"];
const MB = 1_000_000;
/** Far below the 400 MB a row of finding 12 decodes to: the page is refused, not inflated. */
const PEAK_BELOW_KB = 1024 * 1024;

// Writes each file of a JSON list [path, codec, level, columns, rows, groups] (one Python process
// for all: pyarrow's import once), its rows (each string built alone) in one row group or one row
// group per row, every column a large_string; a number in a row stands for that many repeated "a"
// (compresses to almost nothing). level null: the codec's default.
const WRITER = `
import json, sys
import pyarrow as pa, pyarrow.parquet as pq
for path, codec, level, columns, rows, groups in json.loads(sys.stdin.read()):
    schema = pa.schema([(name, pa.large_string()) for name in columns])
    def row_table(row):
        return pa.table([pa.array([v if isinstance(v, str) else "a" * v], type=pa.large_string()) for v in row], schema=schema)
    # write_batch_size=1: a page per value, so no page holds more than one huge string.
    with pq.ParquetWriter(path, schema, compression=codec, compression_level=level, write_batch_size=1, data_page_size=1 << 20) as writer:
        if groups == "one":
            writer.write_table(pa.concat_tables([row_table(row) for row in rows]), row_group_size=len(rows))
        else:
            for row in rows:
                writer.write_table(row_table(row), row_group_size=1)
`;

const tmp = tempDir("mari-parquet-huge-rows-");
afterAll(() => tmp.cleanup());
const file = (name: string) => join(tmp.dir, name);

interface ParquetSpec {
  name: string;
  codec: "zstd" | "gzip";
  /** The codec's level; null for its default. */
  level: number | null;
  columns: string[];
  rows: (string | number)[][];
  groups: "one" | "each";
}

function writeParquets(specs: ParquetSpec[]): void {
  const input = JSON.stringify(specs.map((s) => [file(s.name), s.codec, s.level, s.columns, s.rows, s.groups]));
  const python = spawnSync(venvPython(), ["-c", WRITER], { input, encoding: "utf8", timeout: scaled(500_000) });
  if (python.status !== 0) throw new Error(`pyarrow could not write ${specs.map((s) => s.name).join(", ")}: ${python.error ?? python.stderr}`);
}

/** The built CLI under /usr/bin/time -v: its exit code, its stderr without time's report, and its peak RSS. */
function mariMeasured(args: string[]): Promise<{ code: number; stderr: string; peakKb: number }> {
  return new Promise((resolvePromise, reject) => {
    const child = endWithTest(
      spawn("/usr/bin/time", ["-v", process.execPath, ...MARI_COMMAND, ...args], {
        cwd: ROOT,
        env: childEnv({ NO_COLOR: "1" }),
        stdio: ["ignore", "ignore", "pipe"],
      }),
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const own = stderr.split(/\n(?:Command exited with non-zero status \d+\n)?\tCommand being timed:/)[0]!;
      resolvePromise({ code: code ?? -1, stderr: own, peakKb: peak ? Number(peak[1]) : Number.NaN });
    });
  });
}

const evalArgs = (slice: string, dump: string, out: string) => ["eval", slice, "--predictions", dump, "--out", file(out), "--quiet", "--report", "json"];

describe.runIf(realToolsRequired())("Parquet files whose rows decode to hundreds of MB (real pyarrow)", () => {
  beforeAll(() => {
    // gzip at level 1: ~1.7 MB instead of the default level's ~390 KB, a third of the CPU to write,
    // and still a small file whose row decodes to 400 MB.
    const gzipRow = (name: string, columns: string[]): ParquetSpec => ({ name, codec: "gzip", level: 1, columns, rows: [[IDS[0]!, 400 * MB]], groups: "each" });
    writeParquets([
      // Finding 2: tens of KB of zstd, one row group of three rows of 200 MB each (every row under the bound).
      { name: "zstd-rows.parquet", codec: "zstd", level: null, columns: ["case_id", "completion"], rows: IDS.map((id) => [id, 200 * MB]), groups: "one" },
      // Finding 2 in one row: three 200 MB strings that together would pass the bound.
      {
        name: "zstd-one-row.parquet",
        codec: "zstd",
        level: null,
        columns: ["case_id", "completion", "reasoning", "notes"],
        rows: [[IDS[0]!, 200 * MB, 200 * MB, 200 * MB]],
        groups: "each",
      },
      // Finding 12: one 400 MB row, as a dump and as a slice.
      gzipRow("gzip-row.parquet", ["case_id", "completion"]),
      gzipRow("gzip-slice.parquet", ["id", "text"]),
    ]);
    writeFileSync(file("one.jsonl"), `${JSON.stringify({ case_id: IDS[0], run: 0, judgment: true })}\n`);
  }, scaled(600_000));

  it("three 200 MB rows in a small zstd file are read and each judged: a counted rejection, exit 0", { timeout: scaled(600_000) }, async () => {
    const dump = file("zstd-rows.parquet");
    const r = await mariMeasured(evalArgs(SLICE, dump, "zstd-rows"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Invalid string length|\n\s+at /);
    for (const line of [1, 2, 3]) expect(r.stderr).toContain(`${dump}:${line}: bad_completion_format`);
    const report = JSON.parse(readFileSync(file("zstd-rows/report.json"), "utf8"));
    expect(report.predictions.lines).toBe(3);
    expect(report.rejections.bad_completion_format).toBe(3);
  });

  it("a zstd row whose three 200 MB strings reach the line bound stops the read, exit 2", { timeout: scaled(600_000) }, async () => {
    const dump = file("zstd-one-row.parquet");
    const r = await mariMeasured(evalArgs(SLICE, dump, "zstd-one-row"));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${dump}:1: a line of ${MAX_LINE_BYTES} bytes or more`);
    expect(r.stderr).not.toMatch(/Invalid string length|\n\s+at /);
  });

  for (const [role, name] of [
    ["dump", "gzip-row.parquet"],
    ["slice", "gzip-slice.parquet"],
  ] as const) {
    it(`a 400 MB gzip row (as a ${role}) is refused by its page's size, not read whole, exit 2`, { timeout: scaled(600_000) }, async () => {
      const path = file(name);
      const r = await mariMeasured(role === "dump" ? evalArgs(SLICE, path, `gzip-${role}`) : evalArgs(path, file("one.jsonl"), `gzip-${role}`));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${path}: row group 0, column ${role === "dump" ? "completion" : "text"}: a page's uncompressed size is`);
      expect(r.stderr).toContain(`outside 0…${MAX_LINE_BYTES}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.peakKb).toBeLessThan(PEAK_BELOW_KB);
    });
  }
});
