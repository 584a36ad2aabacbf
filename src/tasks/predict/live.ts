// `predictOpenAI`: an OpenAI-compatible server judges every case × run of a slice; the answers go
// into a dump (file or stdout) with DUMP.meta.json beside a file. Everything `mari predict --judge
// openai` does live except reading flags, printing and choosing the exit code.
import { InputError } from "../../io/errors.js";
import { inPhase, SILENT_OBSERVER } from "../../io/observer.js";
import { oneRunEach } from "../../io/output-guard.js";
import { ChatConfigError } from "../../judges/chat-client.js";
import { usageJson, writeDumpMeta } from "../../judges/dump-meta.js";
import { openDumpSink } from "../../judges/dump-writer.js";
import { OPENAI_JUDGE_VERSION, runOpenAIJudge, type OpenAIJudgeOptions, type OpenAIJudgeSummary } from "../../judges/openai.js";
import { readJudgeCases, type JudgeSliceSettings } from "./cases.js";

/** The phase of the answers, one tick per (case, run) answered, in the order the answers come. */
export const JUDGE_PHASE = "judge (answers)";

export interface OpenAIPredictSettings extends JudgeSliceSettings {
  /** The server, model, sampling, runs, concurrency, retries, cache and prompt. */
  judge: Omit<OpenAIJudgeOptions, "log" | "onSettled">;
  /** The dump file (written atomically once complete, with DUMP.meta.json); absent or "-": stdout. */
  out?: string | undefined;
}

export interface OpenAIPredictOutcome {
  cases: number;
  summary: OpenAIJudgeSummary;
}

/**
 * Judges the slice and writes the dump. Refused as input errors: a server that refuses the requests
 * (unreachable, 401/403/404) and a run in which no request succeeded (no dump is then written).
 * Retries and unreadable answers are notes; a closed stdout rethrows its EPIPE error.
 */
export const predictOpenAI = oneRunEach(async (settings: OpenAIPredictSettings): Promise<OpenAIPredictOutcome> => {
  const observer = settings.observer ?? SILENT_OBSERVER;
  const { judge } = settings;
  const cases = await readJudgeCases(settings, observer);
  const sink = await openDumpSink(settings.out);
  let summary: OpenAIJudgeSummary;
  try {
    summary = await inPhase(observer, JUDGE_PHASE, cases.length * judge.runs, (progress) =>
      runOpenAIJudge(cases, { ...judge, log: (line) => observer.note(line), onSettled: () => progress.tick() }, (p) => sink.write(p)),
    );
    if (summary.predictions > 0 && summary.failed === summary.predictions) {
      // Zero answers is an error, not an empty pass (most likely a wrong base URL or a dead server).
      throw new InputError(`no request succeeded (${summary.failed} failed); first failure: ${summary.firstFailure}`);
    }
    await sink.commit();
  } catch (err) {
    await sink.abort();
    if (err instanceof ChatConfigError) {
      throw new InputError(err.message.startsWith("cannot reach ") ? err.message : `the server refused the request: ${err.message}`);
    }
    throw err;
  }
  await writeDumpMeta(settings.out, {
    judge: "openai",
    judge_version: OPENAI_JUDGE_VERSION,
    source: "live",
    ...(settings.sentences === "punkt" ? { sentences: "punkt" as const } : {}),
    base_url: judge.baseUrl,
    model: judge.model,
    temperature: judge.temperature ?? null,
    max_tokens: judge.maxTokens ?? null,
    max_tokens_field: judge.maxTokens !== undefined ? (judge.maxTokensField ?? "max_completion_tokens") : null,
    runs: judge.runs,
    cases: cases.length,
    prompt_sha256: judge.prompt?.sha256 ?? null,
    usage: usageJson(summary.usage),
  });
  if (summary.skippedCacheLines.length > 0) {
    observer.note(
      `ignored ${summary.skippedCacheLines.length} unreadable cache line(s) (e.g. line ${summary.skippedCacheLines[0]}; a torn last line after a kill is expected)`,
    );
  }
  if (!summary.jsonMode && judge.jsonMode !== false) observer.note("the server rejected response_format json_object; asked without it");
  return { cases: cases.length, summary };
});
