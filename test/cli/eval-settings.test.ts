// `mari eval`'s flags and config → the task's settings, in process: the precedence (flag, then
// config, then the declared default), the bounds, and the refusals, without a child process.
import { describe, expect, it } from "vitest";
import { commonEvalSettings, documentEvalSettings, refuseDocumentOnlyFlags, type EvalFlags } from "../../src/cli/commands/eval-settings.js";
import type { MariConfig } from "../../src/gates/run-config.js";
import { parseGateFlag } from "../../src/gates/spec.js";

const flags = (given: Partial<EvalFlags> = {}): EvalFlags => ({ gate: [], maxDrop: [], classifier: [], ...given });
const config = (given: Partial<MariConfig> = {}): MariConfig => ({ path: null, gates: [], ...given });
const settings = (f: Partial<EvalFlags>, c: Partial<MariConfig> = {}, env: NodeJS.ProcessEnv = {}) =>
  documentEvalSettings("slice.jsonl", flags(f), config(c), commonEvalSettings(flags(f), config(c), env));

describe("eval settings", () => {
  it("with nothing given: the declared defaults", () => {
    const s = settings({});
    expect(s).toMatchObject({ slicePath: "slice.jsonl", outDir: "mari-report", seed: 0, bootstrap: 1000, strict: false, lenientIds: false });
    expect(s).toMatchObject({ sentences: "mari", workers: "auto", gates: [], configPath: null });
    expect(s.formats).toEqual(["json", "md", "html", "junit"]);
    for (const absent of ["dumpPath", "shard", "limit", "rewardsPath", "baselinePath", "chunkLines", "explorerCases", "completionEnd"]) {
      expect(s, absent).not.toHaveProperty(absent);
    }
  });

  it("the config wins over a default, a flag over the config", () => {
    const fromConfig = settings({}, { bootstrap: 200, seed: 5, out: "/c/out", workers: 3, lenient_ids: true, sentences: "punkt" });
    expect(fromConfig).toMatchObject({ bootstrap: 200, seed: 5, outDir: "/c/out", workers: 3, lenientIds: true, sentences: "punkt" });
    const fromFlags = settings(
      { bootstrap: "0", seed: "9", out: "o", workers: "1", sentences: "mari" },
      { bootstrap: 200, seed: 5, out: "/c/out", workers: 3, sentences: "punkt" },
    );
    expect(fromFlags).toMatchObject({ bootstrap: 0, seed: 9, outDir: "o", workers: 1, sentences: "mari" });
  });

  it("flag gates come before the config's; quiet turns the display off unless --progress asks", () => {
    const c = config({ gates: [parseGateFlag("accuracy>=0.5", "config")] });
    const common = commonEvalSettings(flags({ gate: ["macro_f1>=0.6"], quiet: true }), c, {});
    expect(common.gates.map((g) => g.metric)).toEqual(["macro_f1", "accuracy"]);
    expect(common.progressMode).toBe("none");
    expect(commonEvalSettings(flags({ quiet: true, progress: "plain" }), config(), {}).progressMode).toBe("plain");
  });

  it("integers outside their documented bounds are refused, naming the flag", () => {
    expect(() => settings({ bootstrap: "1000001" })).toThrow(/--bootstrap/);
    expect(() => settings({ seed: "-1" })).toThrow(/--seed/);
    expect(() => settings({ workers: "0" })).toThrow(/--workers/);
    expect(() => settings({ limit: "0" })).toThrow(/--limit/);
    expect(() => settings({ explorerCases: "100001" })).toThrow(/--explorer-cases/);
  });

  it("--shard auto reads the environment it is given", () => {
    expect(settings({ shard: "auto" }, {}, { SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_COUNT: "4" }).shard).toEqual({
      index: 2,
      count: 4,
    });
    expect(() => settings({ shard: "auto" })).toThrow(/neither JOB_COMPLETION_INDEX/);
  });

  it("the completion-end flags contradict each other", () => {
    expect(settings({ keepSpecialTokens: true }).completionEnd).toEqual({ keepSpecialTokens: true });
    expect(() => settings({ keepSpecialTokens: true, specialToken: ["<x>"] })).toThrow(/contradict/);
  });

  it("a pair corpus refuses the document-only flags, every one named", () => {
    expect(() => refuseDocumentOnlyFlags("pairs.jsonl", flags({ predictions: "d.jsonl", bootstrap: "5", specialToken: ["<x>"] }))).toThrow(
      "pairs.jsonl: a pair corpus is evaluated by the built-in classifier; --predictions, --bootstrap, --special-token only apply to document slices",
    );
    expect(() => refuseDocumentOnlyFlags("pairs.jsonl", flags({ specialToken: [], lenientIds: false }))).not.toThrow();
  });
});
