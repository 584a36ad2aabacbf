// Content hashes and canonical JSON: how mari names a file, a slice or a config by its content.
import { assertRegularFile } from "./input-file.js";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** sha256 of an input file, streamed so a multi-GB dump is never held in memory. */
export async function sha256File(path: string): Promise<string> {
  await assertRegularFile(path);
  return sha256Stream(path);
}

/**
 * sha256 of a file this run has just written (cases.jsonl for report.json's cases_sha256). Not an
 * input of the run, so unlike `sha256File` it is not recorded as one: a later run may write it again.
 */
export function sha256Written(path: string): Promise<string> {
  return sha256Stream(path);
}

/** Read size of a hashed file: the default 64 KB made a 120 MB cases.jsonl cost as much in chunks as in hashing. */
const HASH_READ_BYTES = 1 << 20;

function sha256Stream(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path, { highWaterMark: HASH_READ_BYTES })
      .on("error", reject)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolve(hash.digest("hex")));
  });
}

export function sha256Text(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * JSON with object keys sorted (recursively), so equal values hash equally whatever order their
 * keys were built in. `undefined` members are left out and non-finite numbers become null, as
 * JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) sorted[key] = sortKeys(member);
  }
  return sorted;
}
