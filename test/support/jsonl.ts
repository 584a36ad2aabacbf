// A small JSONL file read whole, for tests that check outputs against the files they came from.
import { readFileSync } from "node:fs";

export type JsonLine = Record<string, unknown>;

export function readJsonl(path: string): JsonLine[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as JsonLine);
}
