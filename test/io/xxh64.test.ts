// xxh64With (src/io/xxh64.ts) feeds the xxhash-wasm package pieces that fit its memory's one page,
// so the memory never grows: growing detaches its old ArrayBuffer, and V8 then drops every
// optimized function of the process that reads a typed array (its ArrayBufferDetaching protector,
// which --trace-protector-invalidation reports). Checked: the digest of pieces is the package's
// digest of the whole; a child hashing megabytes reports no detach, while the package's own
// one-shot call does (so the trace would show one); a real `mari eval` on one thread, which hashes
// its cases.jsonl and its compiled slice, reports none either, the slice cache cold or warm.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { xxh64Api, xxh64With } from "../../src/io/xxh64.js";
import { MARI_COMMAND, ROOT, tempDir } from "../support/cli.js";
import { SYNC_CHILD } from "../support/children.js";
import { lcg } from "../support/lcg.js";
import { writeJsonl } from "../document-eval/helpers.js";

const tmp = tempDir("mari-xxh64-");
afterAll(() => tmp.cleanup());

const DETACHED = "Invalidating protector cell ArrayBufferDetaching";

/** Random bytes from a seeded generator. */
function randomBytes(length: number, seed: number): Uint8Array {
  const next = lcg(seed);
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = next(256);
  return bytes;
}

/** What a child node started with --trace-protector-invalidation printed, running `args`. */
function traced(args: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(process.execPath, ["--trace-protector-invalidation", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
    ...SYNC_CHILD,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout + r.stderr;
}

describe("XXH64 in pieces", () => {
  it("is the package's digest of the whole input, fed whole or in pieces of any size", async () => {
    const api = await xxh64Api();
    const bytes = randomBytes(3 * 65536 + 12345, 11);
    const whole = api.h64Raw(bytes).toString(16).padStart(16, "0");
    const once = xxh64With(api);
    once.update(bytes);
    expect(once.digest()).toBe(whole);
    const pieces = xxh64With(api);
    for (let at = 0, step = 1; at < bytes.length; at += step, step = (step * 7 + 3) % 100_003) pieces.update(bytes.subarray(at, at + step));
    expect(pieces.digest()).toBe(whole);
  });

  it("never grows the package's memory, where the package's one-shot call does", () => {
    const script = `
import { xxh64Hasher, xxh64Api } from ${JSON.stringify(join(ROOT, "dist/io/xxh64.js"))};
const big = new Uint8Array(5 << 20).fill(7);
const h = await xxh64Hasher();
h.update(big);
h.update(big.subarray(0, 70000));
console.log("pieces " + h.digest());
const api = await xxh64Api();
console.log("one-shot next");
api.h64Raw(big);
`;
    const out = traced(["--input-type=module", "-e", script]);
    const beforeOneShot = out.slice(0, out.indexOf("one-shot"));
    expect(beforeOneShot).toContain("pieces ");
    expect(beforeOneShot).not.toContain(DETACHED);
    expect(out.slice(out.indexOf("one-shot"))).toContain(DETACHED);
  });

  it("leaves a one-thread mari eval without a detached buffer, its slice cache cold and warm", () => {
    // 400 cases × 8 runs: a cases.jsonl and a compiled slice of more than a page each.
    const next = lcg(5);
    const words = ["river", "budget", "council", "market", "winter", "report"];
    const sentence = () => `${Array.from({ length: 6 }, () => words[next(words.length)]).join(" ")}.`;
    const slice = Array.from({ length: 400 }, (_, i) => ({
      id: `c${i}`,
      text: Array.from({ length: 5 }, sentence).join(" "),
      label: i % 2 === 0,
      gold_sentence_ids: i % 2 === 0 ? [1 + (i % 5)] : [],
    }));
    const dump = slice.flatMap((c) =>
      Array.from({ length: 8 }, (_, run) => ({ case_id: c.id, run, judgment: next(10) < 6, evidence_sentence_ids: [1 + next(5)] })),
    );
    const slicePath = writeJsonl(tmp.dir, "slice.jsonl", slice);
    const dumpPath = writeJsonl(tmp.dir, "dump.jsonl", dump);
    const env = { XDG_CACHE_HOME: join(tmp.dir, "cache") };
    for (const [k, reports] of [
      ["cold", "json"],
      ["warm", "html"],
    ] as const) {
      const out = traced(
        [
          ...MARI_COMMAND,
          "eval",
          slicePath,
          "--predictions",
          dumpPath,
          "--workers",
          "1",
          "--report",
          reports,
          "--out",
          join(tmp.dir, k),
          "--quiet",
          "--progress",
          "none",
        ],
        env,
      );
      expect(out, k).not.toContain(DETACHED);
    }
  });
});
