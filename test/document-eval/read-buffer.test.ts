// A JSONL dump is read through one buffer that each read refills (dump-source.ts): a chunk is
// handed on as a view of it only to a pool that scores it before the next read; anything that
// keeps a chunk longer or moves it to a thread gets a copy. Threads load the BUILT task module
// from dist/: run `npm run build` first.
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChunkPool } from "../../src/pool/pool.js";
import { LineEnds } from "../../src/io/line-ends.js";
import { LINE_BLOCK_BYTES } from "../../src/io/lines.js";
import { readDocumentSlice } from "../../src/io/slice.js";
import { DOCUMENT_TASK_MODULE } from "../../src/tasks/document/task-module.js";
import { ROOT } from "../support/cli.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

describe("the dump's reused read buffer", () => {
  it("gives the same outputs inline, in smaller chunks and on threads, over a dump of several reads", async () => {
    const { runDocumentEval } = await import("../../src/tasks/document/score-dump.js");
    const dir = mkdtempSync(join(tmpdir(), "mari-read-buffer-"));
    try {
      const slice = await readDocumentSlice(SLICE);
      // Lines of uneven length (the reasoning grows with the run), so that reads end mid-line at
      // different places; a few lines are rejected or name no case.
      const lines: string[] = [];
      let bytes = 0;
      for (let run = 0; bytes < 2.5 * LINE_BLOCK_BYTES; run++) {
        slice.cases.forEach((c, i) => {
          const judgment = (i * 7 + run) % 5 < 3;
          const line =
            (i + run) % 97 === 0
              ? `{"case_id":${JSON.stringify(c.id)},"run":${run},"judgment":"maybe"}`
              : JSON.stringify({
                  case_id: c.id,
                  run,
                  judgment,
                  evidence_sentence_ids: judgment ? [1 + ((i + run) % 3)] : [],
                  reasoning: `[${1 + (run % 4)}] ${"x".repeat(run % 61)}`,
                });
          lines.push(line);
          bytes += line.length + 1;
        });
        lines.push(JSON.stringify({ case_id: `nowhere-${run}`, run, judgment: false }));
      }
      const dumpPath = join(dir, "dump.jsonl");
      const text = `${lines.join("\n")}\n`;
      writeFileSync(dumpPath, text);
      const run = (workers: number, out: string, chunkLines?: number) =>
        runDocumentEval({
          slicePath: SLICE,
          slice,
          dumpPath,
          outDir: join(dir, out),
          workers,
          seed: 0,
          bootstrap: 50,
          lenientIds: false,
          ...(chunkLines ? { chunkLines } : {}),
        });
      const inline = await run(1, "inline");
      const small = await run(1, "small", 333);
      const threads = await run(2, "threads", 333);
      expect(inline.lines).toBe(lines.length);
      expect(inline.dumpSha256).toBe(createHash("sha256").update(text).digest("hex"));
      for (const other of [small, threads]) {
        expect(readFileSync(other.casesPath, "utf8")).toBe(readFileSync(inline.casesPath, "utf8"));
        expect(other.lines).toBe(inline.lines);
        expect(other.rejections).toEqual(inline.rejections);
        expect(other.rejectionExamples).toEqual(inline.rejectionExamples);
        expect(other.orphans).toEqual(inline.orphans);
        expect(other.dumpSha256).toBe(inline.dumpSha256);
      }
      // Line numbers of the last read are right: the last orphan is the dump's last line.
      expect(inline.orphans.count).toBeGreaterThan(1);
      for (const result of [inline, small, threads]) await result.casesFile.abort();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("chunks kept past the next read are copies; views of the buffer are refilled by it", async () => {
    const { chunked } = await import("../../src/tasks/document/score-dump.js");
    const dir = mkdtempSync(join(tmpdir(), "mari-read-buffer-"));
    try {
      // Lines of up to 350 bytes, about three reads' worth; the first read ends exactly at a line's
      // end, so that its block is the whole buffer.
      const lines: string[] = [];
      let bytes = 0;
      const add = (line: string): void => {
        lines.push(line);
        bytes += line.length + 1;
      };
      for (let k = 0; bytes < 3 * LINE_BLOCK_BYTES; k++) {
        if (bytes < LINE_BLOCK_BYTES && bytes + 400 >= LINE_BLOCK_BYTES) {
          const bare = JSON.stringify({ case_id: `c${k}`, reasoning: "" }).length;
          add(JSON.stringify({ case_id: `c${k}`, reasoning: "z".repeat(LINE_BLOCK_BYTES - bytes - 1 - bare) }));
          expect(bytes).toBe(LINE_BLOCK_BYTES);
          continue;
        }
        add(JSON.stringify({ case_id: `c${k}`, run: k % 7, reasoning: "y".repeat((k * 37) % 300) }));
      }
      const text = `${lines.join("\n")}\n`;
      const dumpPath = join(dir, "dump.jsonl");
      writeFileSync(dumpPath, text);
      const file = Buffer.from(text);
      for (const chunkLines of [undefined, 1000]) {
        for (const own of [true, false]) {
          // Every chunk is kept until the whole dump has been read, as a thread's queue keeps them.
          const kept: { firstLineNo: number; bytes: Uint8Array; lineEnds?: Int32Array }[] = [];
          const copiedNow: Buffer[] = [];
          for await (const chunk of chunked(
            dumpPath,
            {},
            chunkLines,
            () => {},
            [],
            () => own,
          )) {
            if ("kind" in chunk) throw new Error("a JSONL dump gives line blocks");
            kept.push({ firstLineNo: chunk.firstLineNo, bytes: chunk.block, ...(chunk.lineEnds ? { lineEnds: chunk.lineEnds } : {}) });
            copiedNow.push(Buffer.from(chunk.block));
          }
          expect(kept.length).toBeGreaterThan(2);
          // As read, the chunks are the file, in order.
          expect(Buffer.concat(copiedNow).equals(file)).toBe(true);
          const later = Buffer.concat(kept.map((k) => k.bytes));
          if (own) {
            expect(later.equals(file)).toBe(true);
            expect(kept.every((k) => k.bytes.byteOffset === 0 && k.bytes.byteLength === k.bytes.buffer.byteLength)).toBe(true);
            // A whole block's line ends come with it, copied too: still its own after every later read.
            if (chunkLines === undefined) {
              expect(kept.every((k) => k.lineEnds !== undefined)).toBe(true);
              for (const k of kept) expect(Array.from(k.lineEnds!)).toEqual(Array.from(new LineEnds().of(Buffer.from(k.bytes))));
            }
          } else {
            // Views of the one buffer: what a later read put there, not the chunk's lines.
            expect(later.equals(file)).toBe(false);
            expect(new Set(kept.map((k) => k.bytes.buffer)).size).toBeLessThan(kept.length);
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is handed on as read only to a pool that runs each chunk before the next is read", async () => {
    const slice = await readDocumentSlice(SLICE);
    const state = { slice, options: { lenientIds: false } };
    const ready = await createChunkPool({ workers: 1, taskModule: DOCUMENT_TASK_MODULE, initData: undefined, state });
    const promised = await createChunkPool({ workers: 1, taskModule: DOCUMENT_TASK_MODULE, initData: undefined, state: Promise.resolve(state) });
    expect(ready.inline).toBe(true);
    // The first chunk would wait for the state while the next block is read.
    expect(promised.inline).toBe(false);
    await ready.close();
    await promised.close();
  });
});
