// `mari predict`'s flags → the judge's settings, in process: defaults from the option table, the
// environment passed in, every bound named.
import { describe, expect, it } from "vitest";
import { judgeAccess, liveJudgeSettings, runsOf, samplingOf, type PredictOptions } from "../../src/cli/commands/predict-settings.js";

const options = (given: Partial<PredictOptions> = {}): PredictOptions => ({ judge: "openai", jsonMode: true, ...given });
const ENV = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "k-env" };

describe("predict settings", () => {
  it("with only a model: the OpenAI variables and the declared defaults", () => {
    const o = options({ model: "m" });
    const judge = liveJudgeSettings(o, judgeAccess(o, ENV), undefined);
    expect(judge).toEqual({
      baseUrl: "http://127.0.0.1:9/v1",
      apiKey: "k-env",
      model: "m",
      maxTokensField: "max_completion_tokens",
      runs: 1,
      concurrency: 4,
      timeoutMs: 120000,
      maxRetries: 6,
      backoff: { baseMs: 1000, maxMs: 60000, seed: 0 },
      jsonMode: true,
      cachePath: undefined,
      prompt: undefined,
    });
  });

  it("flags win over the environment; the key comes from the variable --api-key-env names", () => {
    const o = options({ model: "m", baseUrl: "https://example.test/v1", apiKeyEnv: "MY_KEY", runs: "3", concurrency: "16", seed: "7" });
    const access = judgeAccess(o, { ...ENV, MY_KEY: "k-mine" });
    expect(access).toEqual({ baseUrl: "https://example.test/v1", apiKey: "k-mine", model: "m" });
    expect(liveJudgeSettings(o, access, undefined)).toMatchObject({ runs: 3, concurrency: 16, backoff: { seed: 7 } });
  });

  it("what is missing is named together; an unset key variable is named, not shown", () => {
    expect(() => judgeAccess(options(), {})).toThrow("--judge openai needs --base-url URL (or OPENAI_BASE_URL), --model M");
    expect(() => judgeAccess(options({ model: "m" }), { OPENAI_BASE_URL: "http://h/v1" })).toThrow(/OPENAI_API_KEY \(named by --api-key-env\) is not set/);
  });

  it("bounds and shapes are checked, each naming its flag", () => {
    const access = { baseUrl: "http://h/v1", apiKey: "k", model: "m" };
    expect(() => liveJudgeSettings(options({ concurrency: "0" }), access, undefined)).toThrow(/--concurrency/);
    expect(() => liveJudgeSettings(options({ retryMaxMs: "2147483648" }), access, undefined)).toThrow(/--retry-max-ms/);
    expect(() => liveJudgeSettings(options(), { ...access, baseUrl: "ftp://h" }, undefined)).toThrow("--base-url must be http(s)");
    expect(() => runsOf(options({ runs: "10001" }))).toThrow(/--runs/);
    expect(() => samplingOf(options({ maxTokensField: "tokens" }))).toThrow(/--max-tokens-field must be one of max_completion_tokens, max_tokens/);
    expect(samplingOf(options({ temperature: "0.5", maxTokens: "64" }))).toEqual({ temperature: 0.5, maxTokens: 64, maxTokensField: "max_completion_tokens" });
  });
});
