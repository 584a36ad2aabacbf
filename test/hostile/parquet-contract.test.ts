// Hostile Parquet files against the input contract (docs/hostile-input.md), through the built CLI:
// a footer that claims more rows than the columns hold (10^7 or 2^50 of 3), a string column holding
// bytes that are not UTF-8, a schema nested deeper than MAX_JSON_DEPTH, and footers with bytes
// overwritten. Each is an input error (exit 2) or a counted per-row rejection, never a crash, a
// stack trace, phantom rows or U+FFFD.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata } from "hyparquet";
import { ByteWriter, parquetWriteBuffer } from "hyparquet-writer";
import { writeMetadata } from "hyparquet-writer/src/metadata.js";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-parquet-contract-");
afterAll(() => tmp.cleanup());
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
const FIRST_ID = "3489738220_3";

function footerStart(bytes: Uint8Array): number {
  return bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true);
}

/** `bytes` with its footer re-encoded after `edit` changed it. */
function withFooter(bytes: Uint8Array, edit: (metadata: ReturnType<typeof parquetMetadata>) => void): Uint8Array {
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
  edit(metadata);
  const writer = new ByteWriter();
  writeMetadata(writer, metadata as never);
  const footer = new Uint8Array(writer.getBuffer());
  const end = footerStart(bytes);
  const out = new Uint8Array(end + footer.length + 8);
  out.set(bytes.subarray(0, end));
  out.set(footer, end);
  new DataView(out.buffer).setUint32(end + footer.length, footer.length, true);
  out.set(Buffer.from("PAR1"), end + footer.length + 4);
  return out;
}

const dump = () =>
  new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: "case_id", data: [FIRST_ID, FIRST_ID, FIRST_ID], type: "STRING" },
        { name: "run", data: [0n, 1n, 2n], type: "INT64" },
        { name: "judgment", data: [true, false, true], type: "BOOLEAN" },
      ],
    }),
  );

async function evalDump(name: string, bytes: Uint8Array) {
  const path = join(tmp.dir, name);
  writeFileSync(path, bytes);
  const r = await runMari(["eval", SLICE, "--predictions", path, "--out", join(tmp.dir, `${name}-out`), "--quiet", "--report", "json"]);
  return { ...r, path };
}

describe("Parquet against the input contract", () => {
  for (const claimed of [10n ** 7n, 2n ** 50n]) {
    it(`a row group claiming ${claimed} rows for 3 is refused, with no phantom rows`, async () => {
      const forged = withFooter(dump(), (m) => {
        m.row_groups[0]!.num_rows = claimed;
        m.num_rows = claimed;
      });
      const r = await evalDump(`rows-${claimed}.parquet`, forged);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`row group 0 declares ${claimed} rows but its columns hold 3`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it("a string that is not UTF-8 makes its row an invalid_utf8 rejection, never U+FFFD", async () => {
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        schema: [
          { name: "root", num_children: 2 },
          { name: "case_id", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" },
          { name: "judgment", type: "BOOLEAN", repetition_type: "REQUIRED" },
        ],
        columnData: [
          { name: "case_id", data: [new Uint8Array([0x62, 0xff]), new TextEncoder().encode(FIRST_ID)] },
          { name: "judgment", data: [true, true] },
        ],
      }),
    );
    const r = await evalDump("utf8.parquet", bytes);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(join(tmp.dir, "utf8.parquet-out", "report.json"), "utf8")));
    expect(report.rejections.invalid_utf8).toBe(1);
    expect(report.rejection_examples).toContainEqual(expect.objectContaining({ reason: "invalid_utf8", where: `${r.path}:1` }));
    expect(JSON.stringify(report)).not.toContain("\ufffd");
  });

  it("a schema nested deeper than 64 levels is refused before any row is assembled", async () => {
    const depth = 70;
    const schema: Record<string, unknown>[] = [
      { name: "root", num_children: 2 },
      { name: "case_id", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" },
    ];
    for (let level = 0; level < depth; level++) schema.push({ name: `s${level}`, repetition_type: "REQUIRED", num_children: 1 });
    schema.push({ name: "leaf", type: "BOOLEAN", repetition_type: "REQUIRED" });
    let nested: unknown = true;
    for (let level = depth - 1; level >= 0; level--) nested = { [level === depth - 1 ? "leaf" : `s${level + 1}`]: nested };
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        schema: schema as never,
        columnData: [
          { name: "case_id", data: [FIRST_ID] },
          { name: "s0", data: [nested] },
        ] as never,
      }),
    );
    const r = await evalDump("deep.parquet", bytes);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`the Parquet schema nests ${depth + 1} levels; at most 64 are read`);
  });

  it("footers with bytes overwritten are input errors (exit 2) or read, never a crash", async () => {
    const good = dump();
    const start = footerStart(good);
    let state = 12345;
    const rand = (n: number) => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state % n;
    };
    for (let k = 0; k < 12; k++) {
      const bytes = Uint8Array.from(good);
      for (let j = 0; j < 3; j++) bytes[start + rand(bytes.length - 8 - start)] = rand(256);
      const r = await evalDump(`footer-${k}.parquet`, bytes);
      expect([0, 2], r.stderr).toContain(r.code);
      expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    }
  });
});
