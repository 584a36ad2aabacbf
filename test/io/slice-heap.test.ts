// The slice reader's heap check (heapWithin in src/io/input-contract.ts, MAX_HELD_INPUT_HEAP_SHARE):
// what counts is the heap the read adds, so a process that already holds much of its own (a
// training loop importing the library) reads a small slice; and a read stops with the file's error,
// not V8's abort, once the heap as a whole nears its end. In child nodes with a 64 MB old
// generation (the refusal of a slice too large for the heap on its own is crash-kinds.test.ts's).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SYNC_CHILD } from "../support/children.js";
import { ROOT } from "../support/cli.js";

const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");

/** Runs a child that keeps `keepShare` of its 64 MB old generation in objects of its own, then reads the shipped 160-document slice. */
function readAfterKeeping(keepShare: number): { status: number | null; stdout: string; stderr: string } {
  const script = `
import { getHeapStatistics } from "node:v8";
import { readDocumentSlice } from ${JSON.stringify(join(ROOT, "dist/io/slice.js"))};
const kept = [];
while (getHeapStatistics().used_heap_size < ${keepShare} * 64 * 2 ** 20) kept.push(Array.from({ length: 1000 }, (_, i) => ({ i, s: "x" + i })));
try {
  const slice = await readDocumentSlice(${JSON.stringify(SLICE)});
  console.log("read " + slice.cases.length + " with " + kept.length + " kept");
} catch (err) {
  console.log("refused: " + err.message);
}
`;
  const r = spawnSync(process.execPath, ["--max-old-space-size=64", "--input-type=module", "-e", script], { encoding: "utf8", ...SYNC_CHILD });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the slice reader's heap check", () => {
  it("counts what the read adds: a process holding 60 % of its heap reads a small slice", () => {
    const r = readAfterKeeping(0.6);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^read 160 with \d+ kept/m);
  });

  it("stops the read with the file's error once the heap as a whole nears its end", () => {
    const r = readAfterKeeping(0.9);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^refused: .*contradoc-160\.jsonl: slice error: the slice is too large for this process's memory: after [\d,]+ cases read it holds \d+ MB and the heap \d+ MB of the 64 MB Node may use/m,
    );
    expect(r.stderr).not.toMatch(/FATAL ERROR|heap out of memory/);
  });
});
