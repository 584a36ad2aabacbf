// Issue 25, item 14, parity corners. The 64-level nesting bound rejected dump lines whose *unread*
// fields were deep, where the reference scores them: the bound now applies to the fields mari reads.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { deep, DOC_SLICE, dumpLine, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-parity-corners-");
afterAll(() => tmp.cleanup());

/** report.json without what differs between two runs of the same predictions (timing, paths, hashes). */
function comparable(dir: string): Record<string, unknown> {
  const { system: _s, elapsed_seconds: _e, predictions, dataset: _d, ...rest } = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  const { path: _p, sha256: _h, ...counts } = predictions;
  return { ...rest, predictions: counts };
}

describe("JSON nesting is bounded where mari reads", () => {
  const slice = firstLines(DOC_SLICE, 12);
  const records = slice.map((l) => JSON.parse(l) as { id: string });
  const slicePath = write(tmp.dir, "slice.jsonl", `${slice.join("\n")}\n`);
  const evalDump = async (name: string, lines: string[]) => {
    const out = join(tmp.dir, name);
    const r = await runMari([
      "eval",
      slicePath,
      "--predictions",
      write(tmp.dir, `${name}.jsonl`, `${lines.join("\n")}\n`),
      "--out",
      out,
      "--quiet",
      "--progress",
      "none",
    ]);
    expect(r.code, r.stderr).toBe(0);
    return out;
  };

  it("a deep field nobody reads leaves the line scored as without it", async () => {
    const plain = records.map((rec) => dumpLine(rec));
    const withDeep = records.map((rec, i) =>
      i % 3 === 0 ? dumpLine(rec).replace(/}$/, `,"trace":${deep(100_000)},"meta":{"steps":${deep(70)}}}`) : dumpLine(rec),
    );
    const a = await evalDump("plain", plain);
    const b = await evalDump("deep-unread", withDeep);
    expect(comparable(b)).toEqual(comparable(a));
    expect(JSON.parse(readFileSync(join(b, "report.json"), "utf8")).rejections).toEqual({});
  });

  it("a deep field mari reads is still malformed_json at its line", async () => {
    const lines = records.map((rec, i) => (i === 1 ? dumpLine(rec, { reasoning: JSON.parse(deep(70)) }) : dumpLine(rec)));
    const out = await evalDump("deep-read", lines);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.rejections.malformed_json).toBe(1);
    expect(JSON.stringify(report.rejection_examples)).toMatch(/deep-read\.jsonl:2.*nested deeper than 64 levels/);
  });
});
