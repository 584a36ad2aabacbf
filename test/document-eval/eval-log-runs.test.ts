// Which run an answer of an evaluation log belongs to, and logs as the tools write them: two
// promptfoo providers answering the same cases are two runs, not one run answered twice; an
// inspect_ai sample without an epoch is in epoch 1 with the samples that have one; a `.eval` written
// by Info-ZIP's zip with ZIP64 records and extra fields in its local headers reads as any other.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../support/cli.js";
import { runTask } from "../support/in-process.js";
import { SYNC_CHILD } from "../support/children.js";

const tmp = tempDir("mari-eval-log-runs-");
afterAll(() => tmp.cleanup());
const records = readFileSync(join(ROOT, "datasets/contradoc/contradoc-160.jsonl"), "utf8").split("\n").slice(0, 4);
const cases = records.map((l) => JSON.parse(l) as { id: string; label: boolean });
const slice = join(tmp.dir, "slice.jsonl");
writeFileSync(slice, `${records.join("\n")}\n`);

/** The model's answer: the gold judgment when `right`, else the other one (a "yes" cites sentence 1). */
function answer(c: { label: boolean }, right = true): string {
  const judgment = right ? c.label : !c.label;
  return JSON.stringify({ judgment, evidence_sentence_ids: judgment ? [1] : [], reasoning: "Read it." });
}
/** What an inspect_ai log's header holds (the samples aside). */
const LOG = { version: 2, status: "success", eval: { task: "contradoc", model: "openai/gpt-4o-mini" } };

let n = 0;
async function reportOf(dump: string): Promise<any> {
  const out = join(tmp.dir, `out-${n++}`);
  await runTask({ task: "documents", slicePath: slice, dumpPath: dump, formats: ["json"] }, out);
  return JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
}

describe("promptfoo: several providers or prompts", () => {
  const result = (testIdx: number, provider: { id: string; label?: string }, promptIdx: number, c: { id: string; label: boolean }, right: boolean) => ({
    promptIdx,
    testIdx,
    testCase: { vars: { case_id: c.id } },
    provider,
    vars: { case_id: c.id },
    response: { output: answer(c, right) },
  });

  it("are runs of their own: each answers every case once, none is a duplicate of another", async () => {
    // promptfoo numbers a test once for all its providers and prompts.
    const rows = cases.flatMap((c, i) => [
      result(i, { id: "openai:gpt-a", label: "" }, 0, c, true),
      result(i, { id: "openai:gpt-b", label: "" }, 0, c, false),
      result(i, { id: "openai:gpt-a", label: "" }, 1, c, i % 2 === 0),
    ]);
    const path = join(tmp.dir, "providers.jsonl");
    writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const report = await reportOf(path);
    expect(report.rejections).toEqual({});
    expect([...report.predictions.runs].sort()).toEqual(["openai:gpt-a#0/0", "openai:gpt-a#1/0", "openai:gpt-b#0/0"]);
    // Each run is scored on its own: all right, half right, all wrong.
    expect(report.runs["openai:gpt-a#0/0"].accuracy).toBe(1);
    expect(report.runs["openai:gpt-a#1/0"].accuracy).toBe(0.5);
    expect(report.runs["openai:gpt-b#0/0"].accuracy).toBe(0);
  });

  it("a provider's label names its runs when it has one", async () => {
    const rows = cases.flatMap((c, i) => [
      result(i, { id: "openai:gpt-a", label: "fast" }, 0, c, true),
      result(i, { id: "openai:gpt-a", label: "slow" }, 0, c, false),
    ]);
    const path = join(tmp.dir, "labels.jsonl");
    writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const report = await reportOf(path);
    expect(report.rejections).toEqual({});
    expect(report.predictions.runs).toEqual(["fast#0/0", "slow#0/0"]);
  });
});

describe("inspect_ai samples", () => {
  const sample = (c: { id: string; label: boolean }, epoch: number | undefined) => ({
    id: c.id,
    ...(epoch === undefined ? {} : { epoch }),
    input: "Is this document self-contradictory?",
    output: { choices: [{ message: { role: "assistant", content: answer(c) } }] },
  });

  it("a sample without an epoch is in epoch 1, with the samples that say so", async () => {
    const path = join(tmp.dir, "mixed.json");
    writeFileSync(path, JSON.stringify({ ...LOG, samples: cases.map((c, i) => sample(c, i % 2 === 0 ? 1 : undefined)) }));
    const report = await reportOf(path);
    expect(report.rejections).toEqual({});
    expect(report.predictions.runs).toEqual(["1"]);
    expect(report.metrics.accuracy).toBe(1);
  });

  // Info-ZIP's `zip -fz` writes what inspect_ai's zip writer may: ZIP64 end records, sizes in the
  // ZIP64 extra field, and local headers whose extra fields (timestamps, owner, ZIP64) differ in
  // length from the central directory's.
  const hasZip = spawnSync("zip", ["-v"], SYNC_CHILD).status === 0;
  it.skipIf(!hasZip && process.env.CI !== "true")("a .eval written by Info-ZIP's zip -fz (ZIP64, local extra fields) is read member by member", async () => {
    const dir = join(tmp.dir, "zip64");
    mkdirSync(join(dir, "samples"), { recursive: true });
    for (const epoch of [1, 2]) {
      for (const c of cases) writeFileSync(join(dir, "samples", `${c.id}_epoch_${epoch}.json`), JSON.stringify(sample(c, epoch)));
    }
    writeFileSync(join(dir, "header.json"), JSON.stringify(LOG));
    execFileSync("zip", ["-q", "-r", "-fz", "log.eval", "header.json", "samples"], { ...SYNC_CHILD, cwd: dir });
    const archive = readFileSync(join(dir, "log.eval"));
    // The archive is what the test means it to be: a ZIP64 end record, and a first local header with extra fields.
    expect(archive.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(archive.readUInt16LE(28)).toBeGreaterThan(0);
    const report = await reportOf(join(dir, "log.eval"));
    expect(report.rejections).toEqual({});
    expect(report.predictions.lines).toBe(2 * cases.length);
    expect(report.predictions.runs).toEqual(["1", "2"]);
    expect(report.metrics.accuracy).toBe(1);
  });
});
