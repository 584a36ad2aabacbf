// Silent loss: a dump that grows while it is read is named in a warning, on stderr and
// in report.json (`warnings`); an unchanged dump gives none.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { preloadFault } from "../support/fault-preload.js";
import { DOC_SLICE, dumpLine, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-dump-change-");
afterAll(() => tmp.cleanup());
const records = firstLines(DOC_SLICE, 160).map((l) => JSON.parse(l) as { id: string });
const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
// 40 runs of every case: a dump of several read blocks.
const lines = Array.from({ length: 40 }, (_, run) => records.map((rec) => dumpLine(rec, { run }))).flat();
const q = ["--progress", "none", "--workers", "1", "--report", "json", "--quiet"];

describe("a dump that changes while it is read", () => {
  it("unchanged: no warning", async () => {
    const dump = write(tmp.dir, "still.jsonl", `${lines.join("\n")}\n`);
    const out = join(tmp.dir, "still");
    const r = await runMari(["eval", slice, "--predictions", dump, "--out", out, ...q]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "report.json"), "utf8")).warnings).toBeUndefined();
  });

  it("appended to during the run: a warning on stderr and in report.json", async () => {
    const dump = join(tmp.dir, "growing.jsonl");
    writeFileSync(dump, `${lines.join("\n")}\n`);
    const out = join(tmp.dir, "growing");
    // A judge still writing: an injected fault appends a line (an orphan) during the first read of
    // the dump, inside the run whatever its speed.
    const late = JSON.stringify({ case_id: "late-0", judgment: "no", evidence_sentence_ids: [] });
    const r = await runMari(["eval", slice, "--predictions", dump, "--out", out, ...q], {
      env: { NODE_OPTIONS: preloadFault("grow-while-read.mjs"), MARI_FAULT_GROW: dump, MARI_FAULT_LINE: late },
    });
    const stderr = r.stderr;
    const size = Buffer.byteLength(`${lines.join("\n")}\n`);
    expect(readFileSync(dump, "utf8").endsWith(`${late}\n`)).toBe(true);
    expect(r.code, stderr).toBe(0);
    expect(stderr).toContain(`mari: warning: the dump ${dump} changed while it was read (${size} → ${size + late.length + 1} bytes)`);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.warnings).toEqual([expect.stringMatching(/growing\.jsonl changed while it was read/)]);
  });
});
