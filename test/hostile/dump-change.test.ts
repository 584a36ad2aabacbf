// Issue 11, silent loss: a dump that grows while it is read is named in a warning, on stderr and
// in report.json (`warnings`); an unchanged dump gives none.
import { spawn } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, MARI_BIN, ROOT, runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, dumpLine, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-dump-change-");
afterAll(() => tmp.cleanup());
const records = firstLines(DOC_SLICE, 160).map((l) => JSON.parse(l) as { id: string });
const slice = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
// 40 runs of every case: enough lines that the read spans many appends.
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
    const child = spawn(process.execPath, [MARI_BIN, "eval", slice, "--predictions", dump, "--out", out, ...q], {
      cwd: ROOT,
      env: childEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    let running = true;
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => ((running = false), resolve(code))));
    // A judge still writing: a line of an unknown case (an orphan) every few milliseconds.
    let k = 0;
    while (running) {
      appendFileSync(dump, `${JSON.stringify({ case_id: `late-${k++}`, judgment: "no", evidence_sentence_ids: [] })}\n`);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await exited, stderr).toBe(0);
    expect(stderr).toMatch(/mari: warning: the dump .*growing\.jsonl changed while it was read \(\d+ → \d+ bytes\)/);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(report.warnings).toEqual([expect.stringMatching(/growing\.jsonl changed while it was read/)]);
  });
});
