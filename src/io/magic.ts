// The first bytes that tell a binary input's format. Kept apart from the readers (parquet.ts,
// zip.ts) so that every input can be checked without loading them: only a run given such a file does.
import { fileStartsWith } from "./input-file.js";

/** The four bytes a Parquet file starts and ends with. */
export const PARQUET_MAGIC = "PAR1";

/** The signature a zip archive (an inspect_ai `.eval` log) starts with. */
export const ZIP_MAGIC = "PK\u0003\u0004";

/** Whether the file at `path` starts with the Parquet magic bytes (false for a missing or short file). */
export function isParquetFile(path: string): Promise<boolean> {
  return fileStartsWith(path, PARQUET_MAGIC);
}
