// Content hashes and canonical JSON: how mari names a file, a slice or a config by its content.
import { assertRegularFile } from "./input-file.js";
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";

/** sha256 of an input file, read in chunks so a multi-GB dump is never held in memory. */
export async function sha256File(path: string): Promise<string> {
  await assertRegularFile(path);
  const hash = createHash("sha256");
  await readFileChunks(path, (bytes) => hash.update(bytes));
  return hash.digest("hex");
}

/** Read size of a hashed file: 64 KB reads made a 120 MB cases.jsonl cost as much in reads as in hashing. */
const HASH_READ_BYTES = 1 << 20;

/**
 * A file's bytes given to `take` in chunks of one reused buffer (each valid only during its call):
 * never held whole in memory, and without a read stream, whose set-up cost as much as hashing a 2 MB
 * slice (a slower start of `mari serve`). The file is neither checked nor noted as an input here.
 */
export async function readFileChunks(path: string, take: (bytes: Uint8Array) => void): Promise<void> {
  const file = await open(path, "r");
  try {
    const chunk = Buffer.allocUnsafe(HASH_READ_BYTES);
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, chunk.length);
      if (bytesRead === 0) break;
      take(chunk.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
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
