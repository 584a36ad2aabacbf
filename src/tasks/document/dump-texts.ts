// The texts the case explorer shows from a prediction dump: each wanted line's reasoning and, for
// the `<think>…</think><answer>…</answer>` layout, the raw completion. Read by positional reads when
// the dump pass recorded line offsets (eval), else by one streaming pass (diff).
import { open } from "node:fs/promises";
import { parseCompletionLayout, parseDumpJson } from "../../io/dump.js";
import { readLines } from "../../io/lines.js";
import { isJsonObject } from "../../io/records.js";
import type { LineOffsets } from "./line-offsets.js";

export interface DumpTexts {
  reasoning?: string;
  raw?: string;
}

/** Reasoning and raw completion of one dump line's text (nothing for a line that is not a JSON object). */
export function textsOfDumpLine(text: string): DumpTexts {
  const parsed = parseDumpJson(text.replace(/^\uFEFF/, "").replace(/\r?\n$/, "").replace(/\r$/, ""));
  if ("error" in parsed) return {};
  const record = parsed.record;
  const source = isJsonObject(record["prediction"]) ? record["prediction"] : record;
  const out: DumpTexts = {};
  if (typeof source["reasoning"] === "string") out.reasoning = source["reasoning"];
  const completion = source["completion"];
  if (typeof completion === "string") {
    out.raw = completion;
    const layout = parseCompletionLayout(completion);
    if (layout && out.reasoning === undefined) out.reasoning = layout.think;
  }
  return out;
}

/** The texts of the given dump lines (1-based line numbers). Unreadable lines are left out. */
export async function readDumpTexts(dumpPath: string, lineNumbers: readonly number[], offsets?: LineOffsets): Promise<Map<number, DumpTexts>> {
  const wanted = [...new Set(lineNumbers)].sort((a, b) => a - b);
  const out = new Map<number, DumpTexts>();
  if (wanted.length === 0) return out;
  if (offsets !== undefined) {
    const file = await open(dumpPath, "r");
    try {
      for (const lineNo of wanted) {
        const range = offsets.range(lineNo);
        if (range === undefined) continue;
        const buffer = Buffer.alloc(range[1] - range[0]);
        await file.read(buffer, 0, buffer.length, range[0]);
        out.set(lineNo, textsOfDumpLine(buffer.toString("utf8")));
      }
    } finally {
      await file.close();
    }
    return out;
  }
  const want = new Set(wanted);
  const last = wanted[wanted.length - 1]!;
  for await (const line of readLines(dumpPath)) {
    if (line.lineNo > last) break;
    if (want.has(line.lineNo) && line.text !== null) out.set(line.lineNo, textsOfDumpLine(line.text));
  }
  return out;
}
