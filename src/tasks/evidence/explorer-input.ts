// What a model gave, for the evidence explorer: a rejected facts case has no scored facts in
// cases.jsonl (the whole output was refused), so the page reads the claims and quotes from the
// input line cases.jsonl names; a located case shows its citations (ref, locator, quote) beside
// the issues found with them. Only the shown cases' input lines are decoded, in one pass.
import { describe } from "../../io/dump.js";
import { forEachLine, readLineBlocks } from "../../io/lines.js";
import { isJsonObject, parseJsonLine, type JsonObject } from "../../io/records.js";
import type { ExplorerData } from "../../report/explorer.js";

const VALUE_CHARS = 400;

/** A text as given, or a short JSON rendering of anything else. */
function text(value: unknown): string {
  return typeof value === "string" ? (value.length > VALUE_CHARS ? `${value.slice(0, VALUE_CHARS)}…` : value) : describe(value, VALUE_CHARS);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A facts output's claims with their quotes, as given; an output without a facts list, as it is (`raw`). */
export function givenFacts(line: JsonObject): JsonObject[] {
  const output = line["output"];
  if (!isJsonObject(output) || !Array.isArray(output["facts"])) return [{ raw: text(output) }];
  return output["facts"].map((fact) => {
    const f = isJsonObject(fact) ? fact : {};
    return {
      claim: text(f["claim"]),
      evidence: list(f["evidence"]).map((item) => {
        // An entry that is not an object is shown as it was written.
        if (!isJsonObject(item)) return { document_id: "(not an evidence object)", section_id: null, quote: text(item) };
        const e = item;
        return { document_id: text(e["document_id"]), section_id: e["section_id"] === undefined ? null : text(e["section_id"]), quote: text(e["quote"]) };
      }),
    };
  });
}

/** A located case's citations, as given. */
export function givenCitations(line: JsonObject): JsonObject[] {
  return list(line["evidence"]).map((item) => {
    const e = isJsonObject(item) ? item : {};
    return { ref: text(e["ref"]), locator: e["locator"] === undefined ? null : text(e["locator"]), quote: e["quote"] === undefined ? null : text(e["quote"]) };
  });
}

/** Adds `given` (from `pick` on the input line its `line` names) to each shown case that `wanted` selects. */
export async function attachGiven(
  explorer: ExplorerData,
  inputPath: string,
  wanted: (record: JsonObject) => boolean,
  pick: (line: JsonObject) => JsonObject[],
): Promise<void> {
  const byLine = new Map<number, JsonObject>();
  for (const c of explorer.cases) {
    const record = c.record;
    if (record !== undefined && typeof record["line"] === "number" && wanted(record)) byLine.set(record["line"], record);
  }
  if (byLine.size === 0) return;
  const last = Math.max(...byLine.keys());
  const visit = (lineNo: number, text: string | null): void => {
    const parsed = parseJsonLine(text);
    if ("record" in parsed) byLine.get(lineNo)!["given"] = pick(parsed.record);
  };
  // Lines no shown case names are skipped undecoded: the page shows a few dozen of many thousands.
  const skip = (lineNo: number): boolean => !byLine.has(lineNo);
  for await (const { firstLineNo, block } of readLineBlocks(inputPath)) {
    if (firstLineNo > last) break;
    forEachLine(block, firstLineNo, visit, skip);
  }
}
