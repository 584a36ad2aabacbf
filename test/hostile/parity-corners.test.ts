// Parity corners. The 64-level nesting bound rejected dump lines whose *unread*
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

describe("sums over runs do not depend on the order lines arrive in", () => {
  it("a shuffled 4-run dump gives the same numbers to the last bit, through the CLI", async () => {
    // A seeded dump: 4 runs × 160 cases, a third of the judgments flipped, a tenth of the lines
    // missing; then the same lines shuffled (as a batch output file arrives, in completion order).
    let state = 11;
    const rand = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 8) / 0x1000000;
    };
    const all = firstLines(DOC_SLICE, 160).map((l) => JSON.parse(l) as { id: string; label: boolean });
    const lines: string[] = [];
    for (const run of ["0", "1", "2", "3"]) {
      for (const rec of all) {
        if (rand() < 0.1) continue;
        const positive = rand() < 0.35 ? !rec.label : rec.label;
        lines.push(JSON.stringify({ case_id: rec.id, run, judgment: positive, evidence_sentence_ids: positive ? [1 + Math.floor(rand() * 3)] : [] }));
      }
    }
    const shuffled = [...lines];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const reports = [];
    for (const [name, dump] of [
      ["in-order", lines],
      ["shuffled", shuffled],
    ] as const) {
      const out = join(tmp.dir, `order-${name}`);
      const path = write(tmp.dir, `order-${name}.jsonl`, `${dump.join("\n")}\n`);
      const r = await runMari(["eval", DOC_SLICE, "--predictions", path, "--out", out, "--quiet", "--progress", "none", "--report", "json"]);
      expect(r.code, r.stderr).toBe(0);
      reports.push(JSON.parse(readFileSync(join(out, "report.json"), "utf8")));
    }
    const [a, b] = reports;
    for (const key of ["metrics", "spread", "ci", "breakdowns", "setcons", "majority", "runs", "rejections", "rejection_examples"]) {
      expect(JSON.stringify(b[key]), key).toBe(JSON.stringify(a[key]));
    }
  });
});
