// Writes Parquet files in tests with a real writer (hyparquet-writer), from plain JSON rows: each
// column's type is taken from its values (strings → UTF8, booleans, integers → INT64, other numbers
// → DOUBLE, lists → a 3-level LIST of their element type), null → an OPTIONAL column's null. The
// codecs the writer lacks are given real compressors: gzip from node's zlib, zstd from the zstd
// program (tests that need it skip, saying so, where it is not installed).
import { execFileSync, spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";
import { SYNC_CHILD } from "./children.js";

export type Codec = "UNCOMPRESSED" | "SNAPPY" | "GZIP" | "ZSTD";

/** Whether the zstd program is there to compress ZSTD pages. */
export const HAVE_ZSTD = spawnSync("zstd", ["--version"], SYNC_CHILD).status === 0;

type Leaf = { type: "BYTE_ARRAY"; converted_type: "UTF8" } | { type: "BOOLEAN" } | { type: "INT64" } | { type: "DOUBLE" };

function leafOf(values: unknown[]): Leaf {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.every((v) => typeof v === "string")) return { type: "BYTE_ARRAY", converted_type: "UTF8" };
  if (present.every((v) => typeof v === "boolean")) return { type: "BOOLEAN" };
  if (present.every((v) => Number.isInteger(v))) return { type: "INT64" };
  if (present.every((v) => typeof v === "number")) return { type: "DOUBLE" };
  throw new Error(`test helper: cannot type values ${JSON.stringify(present.slice(0, 3))}`);
}

function toLeaf(leaf: Leaf, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  return leaf.type === "INT64" ? BigInt(v as number) : v;
}

export function writeParquet(path: string, rows: Record<string, unknown>[], options: { codec?: Codec; rowGroupSize?: number } = {}): void {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const schema: Record<string, unknown>[] = [{ name: "root", num_children: names.length }];
  const columnData: { name: string; data: unknown[] }[] = [];
  for (const name of names) {
    const values = rows.map((r) => r[name] ?? null);
    if (values.some((v) => Array.isArray(v))) {
      const leaf = leafOf(values.flatMap((v) => (Array.isArray(v) ? v : [])));
      schema.push(
        { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        { name: "element", repetition_type: "OPTIONAL", ...leaf },
      );
      columnData.push({ name, data: values.map((v) => (Array.isArray(v) ? v.map((x) => toLeaf(leaf, x)) : null)) });
    } else {
      const leaf = leafOf(values);
      schema.push({ name, repetition_type: "OPTIONAL", ...leaf });
      columnData.push({ name, data: values.map((v) => toLeaf(leaf, v)) });
    }
  }
  parquetWriteFile({
    filename: path,
    schema: schema as never,
    columnData: columnData as never,
    codec: options.codec ?? "SNAPPY",
    compressors: {
      GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)),
      ZSTD: (input: Uint8Array) => new Uint8Array(execFileSync("zstd", ["-q", "-c"], { ...SYNC_CHILD, input })),
    },
    ...(options.rowGroupSize !== undefined ? { rowGroupSize: options.rowGroupSize } : {}),
  });
}
