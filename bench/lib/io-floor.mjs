#!/usr/bin/env node
// What an eval's input and output cost with no parsing or scoring at all: read DUMP in 1 MiB
// blocks and SHA-256 it, then write BYTES bytes (the size of the cases.jsonl the eval writes) to a
// temporary file in 1 MiB blocks and SHA-256 those too, as a report does for both files. Run it
// under /usr/bin/time beside the eval to see how much of the eval's CPU the bytes themselves take.
//   /usr/bin/time -f "%U %S" node bench/lib/io-floor.mjs DUMP BYTES
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [dump, bytesArg] = process.argv.slice(2);
const bytes = Number(bytesArg);
if (dump === undefined || !(bytes >= 0)) {
  console.error("usage: node bench/lib/io-floor.mjs DUMP BYTES");
  process.exit(2);
}
const BLOCK = 1 << 20;
const read = createHash("sha256");
const input = openSync(dump, "r");
const buffer = Buffer.allocUnsafe(BLOCK);
for (let n; (n = readSync(input, buffer, 0, BLOCK, null)) > 0; ) read.update(buffer.subarray(0, n));
closeSync(input);
const dir = mkdtempSync(join(tmpdir(), "mari-io-floor-"));
try {
  const output = openSync(join(dir, "cases.jsonl"), "w");
  const written = createHash("sha256");
  const block = Buffer.alloc(BLOCK, 0x61);
  for (let at = 0; at < bytes; at += BLOCK) {
    const part = block.subarray(0, Math.min(BLOCK, bytes - at));
    written.update(part);
    writeSync(output, part);
  }
  closeSync(output);
  console.log(`${read.digest("hex").slice(0, 12)} ${written.digest("hex").slice(0, 12)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
