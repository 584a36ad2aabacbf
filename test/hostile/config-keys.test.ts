// A config file must not lose a gate without a word, and
// its errors name the config key, not a flag the user never typed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, expectInputError, PAIRS, write } from "./helpers.js";

const tmp = tempDir("mari-config-keys-");
afterAll(() => tmp.cleanup());

const evalWith = (config: string, name: string) =>
  runMari(["eval", DOC_SLICE, "--config", write(tmp.dir, `${name}.json`, config), "--out", join(tmp.dir, name), "--progress", "none", "--quiet"]);

describe("config gates are never dropped silently", () => {
  it('"max_drop": {"__proto__": 0.1} is refused, not a run without the gate', async () => {
    const r = await evalWith('{"documents": {"max_drop": {"__proto__": 0.1}}}', "proto");
    expectInputError(r, /proto\.json: documents\.max_drop "__proto__=0\.1": cannot compare "__proto__"/);
  });

  it('a repeated "documents" key is refused with its line (JSON keeps only the last)', async () => {
    const r = await evalWith('{\n"documents": {"gate": "accuracy>=0.99"},\n"documents": {"seed": 1}\n}\n', "twice");
    expectInputError(r, /twice\.json: .*line 3: the key "documents" appears twice in one object/);
  });

  it("a key repeated deeper, or in a costs file, is refused too", async () => {
    const r = await evalWith('{"documents": {"max_drop": {"macro_f1": 0.5, "macro_f1": 0.01}}}', "deeper");
    expectInputError(r, /deeper\.json: .*the key "macro_f1" appears twice/);
    const costs = write(tmp.dir, "costs.json", '{"stale_kept": 1, "stale_kept": 2}');
    const c = await runMari(["eval", PAIRS, "--costs", costs, "--out", join(tmp.dir, "costs"), "--progress", "none", "--quiet"]);
    expectInputError(c, /costs\.json: .*the key "stale_kept" appears twice/);
  });

  it("the same key in different objects is fine", async () => {
    const r = await evalWith('{"documents": {"seed": 1}, "pairs": {"workers": 1}, "evidence": {"workers": 1}}', "distinct");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(tmp.dir, "distinct", "report.json"), "utf8")).task).toBe("documents");
  });
});

describe("config report errors name the config key", () => {
  it.each([
    ['{"report": "json,pdf"}', /top-report\.json: report: unknown format "pdf"/, "top-report"],
    ['{"documents": {"report": ["md", "svg"]}}', /section-report\.json: documents\.report: unknown format "svg"/, "section-report"],
  ])("%s", async (config, pattern, name) => {
    const r = await evalWith(config, name);
    expectInputError(r, pattern);
    expect(r.stderr).not.toContain("--report");
  });
});
