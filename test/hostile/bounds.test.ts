// Crashes: over-deep values anywhere a record is carried through, numeric flags and
// config values beyond their bounds, and grids too large to build are input errors (exit 2) with
// file:line or the bound in the message, never a stack overflow or a typed-array crash.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { deep, DOC_SLICE, dumpLine, EVIDENCE_DOCS, expectInputError, expectNoCrash, firstLines, PAIRS, write } from "./helpers.js";

const tmp = tempDir("mari-bounds-");
afterAll(() => tmp.cleanup());
const sliceLines = firstLines(DOC_SLICE, 4);
const slice = write(tmp.dir, "slice.jsonl", `${sliceLines.join("\n")}\n`);
const records = sliceLines.map((l) => JSON.parse(l) as { id: string });
const pairLines = firstLines(PAIRS, 6);
const quiet = ["--quiet", "--progress", "none", "--workers", "1"];
let n = 0;
const out = () => join(tmp.dir, `out-${n++}`);

describe("100k-deep values", () => {
  it("an unknown slice field: that record left out, named at slice.jsonl:2 (exit 2 with --strict)", async () => {
    const bad = [sliceLines[0], `${sliceLines[1]!.slice(0, -1)}, "extra": ${deep()}}`, ...sliceLines.slice(2)];
    const path = write(tmp.dir, "deep-slice.jsonl", `${bad.join("\n")}\n`);
    const strict = await runMari(["eval", path, "--out", out(), "--strict", ...quiet]);
    expectInputError(strict, /deep-slice\.jsonl:2: .*nested deeper than 64 levels/);
    const dir = out();
    const r = await runMari(["eval", path, "--out", dir, ...quiet, "--report", "json"]);
    expectNoCrash(r);
    expect(r.stderr).toMatch(/deep-slice\.jsonl:2: .*nested deeper than 64 levels/);
    const report = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(join(dir, "report.json"), "utf8")));
    expect(report.dataset.rejected_records).toBe(1);
    expect(report.dataset.cases).toBe(sliceLines.length - 1);
  });

  // A field mari does not read ("extra") may be deep: parity-corners.test.ts.
  it.each(["judgment", "evidence_sentence_ids"])("a dump's %s: one counted malformed_json rejection at its line", async (field) => {
    const lines = records.map((rec, i) => (i === 2 ? `${dumpLine(rec).slice(0, -1)}, "${field}": ${deep()}}` : dumpLine(rec)));
    const dir = out();
    const r = await runMari([
      "eval",
      slice,
      "--predictions",
      write(tmp.dir, `deep-${field}.jsonl`, `${lines.join("\n")}\n`),
      "--out",
      dir,
      ...quiet,
      "--report",
      "json",
    ]);
    expectNoCrash(r);
    const report = JSON.parse(await import("node:fs").then((fs) => fs.readFileSync(join(dir, "report.json"), "utf8")));
    const malformed = report.rejection_examples.filter((ex: { reason: string }) => ex.reason === "malformed_json");
    expect(malformed).toEqual([
      expect.objectContaining({ where: expect.stringMatching(/deep-.*\.jsonl:3$/), message: expect.stringMatching(/nested deeper than 64/) }),
    ]);
  });

  it.each(["id", "new", "kind", "extra"])("a pair's %s: counted with its line, in eval and classify", async (field) => {
    const rec = JSON.parse(pairLines[1]!) as Record<string, unknown>;
    delete rec[field];
    const bad = [pairLines[0], `${JSON.stringify(rec).slice(0, -1)}, "${field}": ${deep()}}`, ...pairLines.slice(2)];
    const file = write(tmp.dir, `deep-pair-${field}.jsonl`, `${bad.join("\n")}\n`);
    const e = await runMari(["eval", file, "--out", out(), ...quiet]);
    expectNoCrash(e);
    expect(e.stderr + e.stdout).toMatch(new RegExp(`deep-pair-${field}\\.jsonl:2: .*nested deeper than 64`));
    const c = await runMari(["classify", file]);
    expectNoCrash(c);
    expect(c.stderr).toMatch(new RegExp(`deep-pair-${field}\\.jsonl:2: .*nested deeper than 64`));
    expect(c.stdout.trim().split("\n")).toHaveLength(pairLines.length - 1);
  });

  it("--costs and --grid files: exit 2 naming the file", async () => {
    const costs = write(tmp.dir, "deep-costs.json", `{"stale_kept": ${deep()}}`);
    expectInputError(await runMari(["sweep", PAIRS, "--costs", costs, "--out", out(), ...quiet]), /deep-costs\.json: .*nested deeper than 64/);
    const grid = write(tmp.dir, "deep-grid.json", `{"overlapFloor": ${deep()}}`);
    expectInputError(await runMari(["sweep", PAIRS, "--grid", grid, "--out", out(), ...quiet]), /deep-grid\.json: .*nested deeper than 64/);
  });

  it("an evidence facts line: counted with its line", async () => {
    const facts = write(tmp.dir, "deep-facts.jsonl", `{"case_id": "a", "output": ${deep()}}\n`);
    const r = await runMari(["evidence", EVIDENCE_DOCS, "--facts", facts, "--out", out(), "--quiet", "--progress", "none"]);
    expectNoCrash(r);
    expect(r.stderr + r.stdout).toMatch(/deep-facts\.jsonl:1: malformed_json/);
  });
});

describe("numeric bounds are stated", () => {
  it.each([
    [["--bootstrap", "1000000000000000"], /--bootstrap "1000000000000000": expected an integer from 0 to 1000000/],
    [["--bootstrap", "1e15"], /--bootstrap "1e15": expected an integer from 0 to 1000000/],
    [["--workers", "1000000"], /--workers "1000000": expected an integer from 1 to 256/],
    [["--seed", "99999999999"], /--seed "99999999999": expected an integer from 0 to 4294967295/],
    [["--shard", "0/100000000"], /--shard "0\/100000000": .*≤ 1000000/],
  ])("eval %j", async (flags, message) => {
    expectInputError(await runMari(["eval", slice, "--out", out(), "--quiet", "--progress", "none", ...flags]), message);
  });

  it.each([
    ["bootstrap", 1e15],
    ["workers", 1000000],
    ["seed", -1],
  ])("config %s = %d", async (key, value) => {
    // workers is shared by every task (top level); seed and bootstrap are document settings.
    const content = key === "workers" ? { [key]: value } : { documents: { [key]: value } };
    const config = write(tmp.dir, `config-${key}.json`, JSON.stringify(content));
    expectInputError(await runMari(["eval", slice, "--config", config, "--out", out(), "--quiet"]), new RegExp(`config .*${key}: .*(equal to|Too)`));
  });

  it.each([
    [["--runs", "1000000"], /--runs "1000000": expected an integer from 1 to 10000/],
    [["--concurrency", "0"], /--concurrency "0": expected an integer from 1 to 1024/],
    // Node's timers fire at once above 2^31 - 1 ms: a larger timeout would time out every request.
    [["--timeout-ms", "3000000000"], /--timeout-ms "3000000000": expected an integer from 1 to 2147483647/],
    [["--retry-max-ms", "1e9"], /--retry-max-ms "1e9": expected an integer from 0 to 2147483647/],
    [["--max-retries", "1000"], /--max-retries "1000": expected an integer from 0 to 100/],
    [["--max-tokens", "99999999999"], /--max-tokens "99999999999": expected an integer from 1 to 10000000/],
  ])("predict %j: refused before any request", async (flags, message) => {
    // The base URL is a closed port: a request would fail differently (and slowly).
    const args = ["predict", slice, "--judge", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--api-key-env", "MARI_BOUNDS_KEY"];
    expectInputError(await runMari([...args, ...flags, "--out", join(tmp.dir, "never.jsonl"), "--quiet"], { env: { MARI_BOUNDS_KEY: "k" } }), message);
  });

  it("sweep and merge --workers 1000000", async () => {
    expectInputError(
      await runMari(["sweep", PAIRS, "--workers", "1000000", "--out", out(), "--quiet"]),
      /--workers "1000000": expected an integer from 1 to 256/,
    );
    expectInputError(await runMari(["merge", "a/report.json", "--workers", "1000000", "--out", out(), "--quiet"]), /--workers|a\/report\.json/);
  });

  it("a --grid of 10^8 configs is refused up front with the limit", async () => {
    const list = (k: number) => Array.from({ length: k }, (_, i) => i + 1);
    const grid = write(
      tmp.dir,
      "huge-grid.json",
      JSON.stringify({
        overlapFloor: list(100).map((v) => v / 101),
        residueMax: list(100),
        negOverlapFloor: list(100).map((v) => v / 101),
        aliasPrefixMin: list(100),
      }),
    );
    expectInputError(
      await runMari(["sweep", PAIRS, "--grid", grid, "--out", out(), ...quiet]),
      /huge-grid\.json: the grid has 100000000 configs .* at most 100000/,
    );
  });

  it("--costs unit prices of 1.7e308 are refused with the bound", async () => {
    const costs = write(tmp.dir, "huge-costs.json", JSON.stringify({ stale_kept: 1.7e308 }));
    expectInputError(
      await runMari(["eval", PAIRS, "--costs", costs, "--out", out(), ...quiet]),
      /huge-costs\.json: .*stale_kept must be a finite number >= 0, got 1\.7e\+308 \(at most 1000000000000\)/,
    );
  });
});
