// Errors that say what to do next: a `;`- or tab-separated slice is read (its delimiter sniffed from
// the header line), zero matching ids show a few ids of each side and the flag that maps them, a
// misspelt config key gets "did you mean", and README's serve session replays with `mari eval` as
// written, while a log written without --log-predictions is named as such.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childEnv, MARI_SHELL, ROOT, runMari, tempDir } from "../support/cli.js";
import { endWithTest, SYNC_CHILD } from "../support/children.js";

const { dir, cleanup } = tempDir("mari-next-step-");
const SLICE = join(ROOT, "datasets/contradoc/contradoc-160.jsonl");
afterAll(() => cleanup());

function csvField(value: string): string {
  return /[",;\t\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The first `n` slice records as CSV with `delimiter`, and as JSONL (the same records). */
function slices(n: number, delimiter: string): { csv: string; jsonl: string } {
  const records = readFileSync(SLICE, "utf8")
    .trim()
    .split("\n")
    .slice(0, n)
    .map((l) => JSON.parse(l) as { id: string; text: string; label: boolean; evidence: string | null });
  const csv = join(dir, `slice-${delimiter === "\t" ? "tab" : "semicolon"}.csv`);
  const rows = records.map((r) => [r.id, r.text, String(r.label), r.evidence ?? ""].map(csvField).join(delimiter));
  writeFileSync(csv, `${["id", "text", "label", "evidence"].join(delimiter)}\n${rows.join("\n")}\n`);
  const jsonl = join(dir, "slice.jsonl");
  writeFileSync(jsonl, `${records.map((r) => JSON.stringify({ id: r.id, text: r.text, label: r.label, evidence: r.evidence ?? "" })).join("\n")}\n`);
  return { csv, jsonl };
}

function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });
}

describe("errors with the next step", () => {
  it.each([
    ["semicolon", ";"],
    ["tab", "\t"],
  ])("a %s-separated slice is read like its JSONL twin", async (name, delimiter) => {
    const { csv, jsonl } = slices(30, delimiter);
    const fromCsv = await runMari(["eval", csv, "--out", join(dir, `csv-${name}`), "--quiet", "--report", "json"]);
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    const fromJsonl = await runMari(["eval", jsonl, "--out", join(dir, `jsonl-${name}`), "--quiet", "--report", "json"]);
    expect(fromJsonl.code, fromJsonl.stderr).toBe(0);
    const a = JSON.parse(readFileSync(join(dir, `csv-${name}/report.json`), "utf8"));
    const b = JSON.parse(readFileSync(join(dir, `jsonl-${name}/report.json`), "utf8"));
    expect(a.dataset.cases).toBe(30);
    expect(a.dataset.slice_hash).toBe(b.dataset.slice_hash);
    expect(a.metrics).toEqual(b.metrics);
  });

  it("zero matching ids: three ids of each side, and where the id must be", async () => {
    const dump = join(dir, "other-ids.jsonl");
    writeFileSync(
      dump,
      `${["q-1", "q-2", "q-3", "q-4"].map((id) => JSON.stringify({ case_id: id, judgment: false, evidence_sentence_ids: [] })).join("\n")}\n`,
    );
    const r = await runMari(["eval", SLICE, "--predictions", dump, "--out", join(dir, "ids"), "--quiet"]);
    expect(r.code).toBe(2);
    const ids = readFileSync(SLICE, "utf8")
      .split("\n")
      .slice(0, 3)
      .map((l) => JSON.stringify(JSON.parse(l).id));
    expect(r.stderr).toContain(
      `zero cases scored (no dump line matched a slice case): the slice's ids are ${ids.join(", ")}, …, the dump's "q-1", "q-2", "q-3", …`,
    );
    expect(r.stderr).toContain(
      "a dump line names its case in case_id (or id), equal to the slice's id; for an inspect_ai or promptfoo log as --predictions, name the field holding the case id with --id-field FIELD",
    );
  });

  it("a misspelt config key: did you mean", async () => {
    const project = join(dir, "project");
    mkdirSync(project);
    writeFileSync(join(project, "mari.config.json"), JSON.stringify({ documents: { bootstrp: 100 } }));
    const r = await runMari(["eval", SLICE, "--out", join(project, "out"), "--quiet"], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown key "bootstrp" in "documents"; did you mean "bootstrap"?');
  });

  it("README's serve session, as written, replays with mari eval; a log without --log-predictions is named", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const block = /### `mari serve`[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!.replace(/\\\n\s*/g, "");
    const lines = block.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
    const serveLine = lines.find((l) => l.startsWith("mari serve"))!.replace(/\s*&\s*$/, "");
    const curlLine = lines
      .slice(lines.findIndex((l) => l.startsWith("curl ")))
      .join("\n")
      .split("\n#")[0]!
      .split("\nkill")[0]!;
    const replayLine = lines.find((l) => l.startsWith("mari eval"))!.replace(/\s+#\s.*$/, "");
    expect(serveLine).toContain("--log-predictions");
    // As written, but on a free port: other suites on this machine may hold 8000.
    const port = await freePort();
    const onPort = (line: string) => line.replace("--port 8000", `--port ${port}`).replace("127.0.0.1:8000", `127.0.0.1:${port}`);
    symlinkSync(join(ROOT, "datasets"), join(dir, "datasets"));
    const sh = (line: string) => line.replace(/^mari /, `${MARI_SHELL} `);
    const server = endWithTest(spawn("sh", ["-c", `exec ${sh(onPort(serveLine))}`], { cwd: dir, env: childEnv(), stdio: ["ignore", "ignore", "pipe"] }));
    const exited = new Promise((r) => server.once("exit", r));
    try {
      await new Promise<void>((ready, fail) => {
        let text = "";
        server.stderr.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("listening on")) ready();
        });
        server.on("exit", (code) => fail(new Error(`serve exited ${code}: ${text}`)));
      });
      const answer = spawnSync("sh", ["-c", onPort(curlLine)], { ...SYNC_CHILD, cwd: dir, encoding: "utf8" });
      expect(JSON.parse(answer.stdout).results[0].accuracy).toBe(-1);
    } finally {
      server.kill("SIGTERM");
      await exited;
    }
    const replay = spawnSync("sh", ["-c", sh(replayLine)], { ...SYNC_CHILD, cwd: dir, encoding: "utf8", env: childEnv() });
    expect(replay.status, replay.stderr).toBe(0);
    const replayed = JSON.parse(readFileSync(join(dir, "served/report.json"), "utf8"));
    expect(replayed.predictions.lines).toBe(1);
    // The same session without --log-predictions: the error says which flag was missing.
    const log = join(dir, "rewards-only.jsonl");
    const served = readFileSync(join(dir, "rewards-served.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    writeFileSync(log, `${served.map(({ completion: _c, prediction: _p, ...rest }) => JSON.stringify(rest)).join("\n")}\n`);
    const r = await runMari(["eval", SLICE, "--predictions", log, "--out", join(dir, "rewards-only"), "--quiet"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("It looks like a mari serve --log written without --log-predictions");
    expect(r.stderr).toContain("serve with --log FILE --log-predictions to replay the log with mari eval");
  });
});
