// `classifyPairs`, the task behind `mari classify`, called in process: verdicts in input order on
// the given stream, bad records counted with their place, the same bytes as the CLI, nothing printed.
import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as mari from "../../src/index.js";
import { ROOT, runMari, tempDir } from "../support/cli.js";

/** A stream that keeps what it is given. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

const CACHE_UPDATE = { id: "cache", new: "Cache entries expire after a 30 minute TTL.", old: "Cache entries expire after a 10 minute TTL." };
const SAME = { id: "same", new: "Maya prefers oat milk in her coffee.", old: "Maya prefers oat milk in her coffee." };

describe("classifyPairs (the task behind mari classify)", () => {
  it("writes one verdict per usable pair in input order and counts each rejected record at its line", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const pairs = join(dir, "pairs.jsonl");
      const lines = [
        JSON.stringify(CACHE_UPDATE),
        "{not json",
        JSON.stringify({ id: "cache", new: "a", old: "b" }),
        JSON.stringify({ id: "x", old: "b" }),
        JSON.stringify(SAME),
      ];
      writeFileSync(pairs, `${lines.join("\n")}\n`);
      const out = collector();
      const outcome = await mari.classifyPairs({ pairs, output: out.stream });
      const verdicts = out
        .text()
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: string; class: string; reason: string });
      expect(verdicts.map((v) => v.id)).toEqual(["cache", "same"]);
      expect(verdicts[0]).toEqual({ id: "cache", class: "update", reason: 'value swap: "10" -> "30"' });
      expect(verdicts[1]!.class).toBe("restatement");
      expect(outcome.classified).toBe(2);
      expect(outcome.rejectedTotal).toBe(3);
      expect(outcome.examples.map((ex) => [ex.where, ex.reason])).toEqual([
        [`${pairs}:2`, "malformed_json"],
        [`${pairs}:3`, "duplicate_id"],
        [`${pairs}:4`, "bad_new"],
      ]);
      expect(Object.fromEntries(outcome.rejected)).toEqual({ malformed_json: 1, duplicate_id: 1, bad_new: 1 });
      expect(outcome.outputClosed).toBe(false);
      expect(outcome.source).toBe(pairs);
    } finally {
      cleanup();
    }
  });

  it("gives a CSV file the same verdicts as its JSONL twin, and refuses a file that is not a pair corpus", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const csv = join(dir, "pairs.csv");
      writeFileSync(csv, `id,new,old\n${[CACHE_UPDATE, SAME].map((p) => `${p.id},"${p.new}","${p.old}"`).join("\n")}\n`);
      const out = collector();
      const outcome = await mari.classifyPairs({ pairs: csv, output: out.stream });
      expect(outcome.classified).toBe(2);
      expect(out.text().split("\n")[0]).toBe('{"id":"cache","class":"update","reason":"value swap: \\"10\\" -> \\"30\\""}');
      const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
      await expect(mari.classifyPairs({ pairs: slice, output: collector().stream })).rejects.toThrow(/not a pair corpus/);
    } finally {
      cleanup();
    }
  });

  it("writes the bytes mari classify prints for the shipped corpus, with the thresholds it is given", async () => {
    const corpus = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
    const config = mari.parseConfigAssignments(["overlapFloor=0.4"]);
    const out = collector();
    const outcome = await mari.classifyPairs({ pairs: corpus, output: out.stream, config });
    const cli = await runMari(["classify", corpus, "--classifier", "overlapFloor=0.4"]);
    expect(cli.code).toBe(0);
    expect(out.text()).toBe(cli.stdout);
    expect(outcome.classified).toBe(out.text().trim().split("\n").length);
  });

  it("stops quietly when the reader closes the output (EPIPE)", async () => {
    const corpus = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
    let writes = 0;
    const closed = new Writable({
      write(_chunk, _encoding, done) {
        writes++;
        done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const outcome = await mari.classifyPairs({ pairs: corpus, output: closed });
    expect(outcome.outputClosed).toBe(true);
    expect(writes).toBe(1);
  });
});
