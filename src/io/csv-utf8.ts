// csv-parse decodes bytes itself and turns invalid UTF-8 into U+FFFD without a word. The bytes
// are passed through here on their way to the parser and every line that is not valid UTF-8 is
// noted, so the reader can reject the records that contain one (`invalid_utf8`, as the JSONL
// readers do) instead of scoring replacement characters. A multi-byte UTF-8 sequence never
// contains 0x0a, so checking line by line is exact.
import { isUtf8 } from "node:buffer";

const NEWLINE = 0x0a;

/** Yields `chunks` unchanged, adding to `invalid` the 1-based number of each line that is not UTF-8. */
export async function* noteInvalidUtf8Lines(chunks: AsyncIterable<Buffer>, invalid: Set<number>): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  let lineNo = 1;
  for await (const chunk of chunks) {
    const bytes = carry === undefined ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      if (!isUtf8(bytes.subarray(start, end))) invalid.add(lineNo);
      lineNo++;
      start = end + 1;
    }
    carry = start < bytes.length ? Buffer.from(bytes.subarray(start)) : undefined;
    yield chunk;
  }
  if (carry !== undefined && !isUtf8(carry)) invalid.add(lineNo);
}

/** The first line in [from, to] that `invalid` holds, if any. */
export function firstInvalidLine(invalid: ReadonlySet<number>, from: number, to: number): number | undefined {
  if (invalid.size === 0) return undefined;
  for (let line = from; line <= to; line++) if (invalid.has(line)) return line;
  return undefined;
}
