// The OpenAI-compatible judge: one chat request per (case, run), at most `concurrency` in flight,
// each answer appended to the cache as it arrives, predictions emitted in slice order × run order
// whatever order the answers come back in.
import pLimit from "p-limit";
import { failedPrediction } from "./answer.js";
import { CacheAppender, cacheKey, loadCache, type LoadedCache } from "./cache.js";
import { ChatClient, type ChatClientOptions } from "./chat-client.js";
import { addUsage, completionPrediction, type TokenUsage } from "./chat-request.js";
import { buildJudgeMessages, type PromptTemplate } from "./prompt.js";
import { predictionLine, type JudgeCase, type Prediction, type PredictionBody } from "./types.js";

/** Part of every cache key: bump it when the prompt or answer handling changes meaning. */
export const OPENAI_JUDGE_VERSION = "mari-openai-judge/2";

export interface OpenAIJudgeOptions extends ChatClientOptions {
  /** Independent runs per case (run r is never served from another run's cache entry). */
  runs: number;
  concurrency: number;
  cachePath?: string | undefined;
  /** A user prompt template (--prompt); absent = the built-in prompt. */
  prompt?: PromptTemplate | undefined;
  /**
   * Called as each (case, run) is settled, in completion order (emission waits for slice order, so
   * progress counted at emission would stall behind one slow request, then jump).
   */
  onSettled?: (() => void) | undefined;
  /** Diagnostics (already redacted), one line each, for stderr. */
  log?: ((line: string) => void) | undefined;
}

export interface OpenAIJudgeSummary {
  predictions: number;
  fromCache: number;
  requested: number;
  /** Answers that could not be read (non-JSON, wrong shape, wrong case, empty, truncated), cached ones included. */
  malformed: number;
  /** Of `malformed`, those served from the cache. */
  malformedFromCache: number;
  /** Tokens the server reported for the requests of this run (cached answers cost nothing). */
  usage: TokenUsage;
  /** Requests that failed for good; written as failed predictions but not cached (a rerun retries them). */
  failed: number;
  /** The first failed request's message (redacted), for the error when nothing succeeded. */
  firstFailure?: string;
  retries: number;
  jsonMode: boolean;
  skippedCacheLines: number[];
}

export async function runOpenAIJudge(
  cases: readonly JudgeCase[],
  options: OpenAIJudgeOptions,
  emit: (prediction: Prediction) => void | Promise<void>,
): Promise<OpenAIJudgeSummary> {
  const cache: LoadedCache = options.cachePath ? await loadCache(options.cachePath) : { entries: new Map(), skippedLines: [] };
  const appender = options.cachePath ? await CacheAppender.open(options.cachePath) : undefined;
  const judging = new JudgeRun(cases, options, cache, appender, emit);
  const total = cases.length * options.runs;
  const limit = pLimit(Math.max(1, options.concurrency));
  const outcomes = await Promise.allSettled(
    Array.from({ length: total }, (_, slot) =>
      limit(async () => {
        try {
          await judging.judgeOne(slot);
        } catch (err) {
          judging.stopped = true; // a configuration error: every other request would fail the same way
          throw err;
        }
      }),
    ),
  );
  await appender?.close();
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) throw failure.reason;
  await judging.emitting;
  judging.summary.jsonMode = judging.client.usesJsonMode;
  return judging.summary;
}

/** One judging of cases × runs: the counts, the client, and the reorder buffer that emits predictions in slot order. */
class JudgeRun {
  readonly summary: OpenAIJudgeSummary;
  readonly client: ChatClient;
  /** Reorder buffer: slot i = case ⌊i/runs⌋, run i mod runs. */
  private readonly slots: (Prediction | undefined)[];
  private nextToEmit = 0;
  emitting: Promise<void> = Promise.resolve();
  stopped = false;

  constructor(
    private readonly cases: readonly JudgeCase[],
    private readonly options: OpenAIJudgeOptions,
    private readonly cache: LoadedCache,
    private readonly appender: CacheAppender | undefined,
    private readonly emit: (prediction: Prediction) => void | Promise<void>,
  ) {
    this.summary = {
      predictions: 0,
      fromCache: 0,
      requested: 0,
      malformed: 0,
      malformedFromCache: 0,
      usage: { promptTokens: 0, completionTokens: 0 },
      failed: 0,
      retries: 0,
      jsonMode: options.jsonMode ?? true,
      skippedCacheLines: cache.skippedLines,
    };
    this.client = new ChatClient({
      ...options,
      onRetry: (info) => {
        this.summary.retries++;
        options.log?.(`retry ${info.attempt} for ${info.requestKey} in ${info.delayMs} ms: ${info.cause}`);
        options.onRetry?.(info);
      },
    });
    this.slots = new Array(cases.length * options.runs);
  }

  async judgeOne(slot: number): Promise<void> {
    if (this.stopped) return;
    const options = this.options;
    const judgeCase = this.cases[Math.floor(slot / options.runs)]!;
    const run = slot % options.runs;
    const messages = buildJudgeMessages(judgeCase, options.prompt);
    const key = cacheKey({
      judgeVersion: OPENAI_JUDGE_VERSION,
      baseUrl: options.baseUrl,
      model: options.model,
      temperature: options.temperature ?? null,
      maxTokens: options.maxTokens ?? null,
      promptSha256: options.prompt?.sha256 ?? null,
      messages,
      run,
    });
    const cached = this.cache.entries.get(key);
    const body = cached !== undefined ? this.fromCache(cached) : await this.request(key, messages, judgeCase, run);
    this.slots[slot] = predictionLine(judgeCase.id, run, body);
    options.onSettled?.();
    await this.flush();
  }

  private fromCache(body: PredictionBody): PredictionBody {
    this.summary.fromCache++;
    if (body.error) {
      this.summary.malformed++;
      this.summary.malformedFromCache++;
    }
    return body;
  }

  /** Asks the server; an answer (well-formed or not) is cached, a failed request is not. */
  private async request(key: string, messages: ReturnType<typeof buildJudgeMessages>, judgeCase: JudgeCase, run: number): Promise<PredictionBody> {
    const { summary, options } = this;
    summary.requested++;
    const result = await this.client.complete(messages, `case ${JSON.stringify(judgeCase.id)} run ${run}`, run);
    if (!result.ok) {
      summary.failed++;
      summary.firstFailure ??= result.message;
      options.log?.(`case ${JSON.stringify(judgeCase.id)} run ${run}: ${result.message}`);
      return failedPrediction(result.code, result.message);
    }
    addUsage(summary.usage, result.usage);
    const body = completionPrediction(result.content, result.finishReason, judgeCase.id);
    if (body.error) {
      summary.malformed++;
      options.log?.(`case ${JSON.stringify(judgeCase.id)} run ${run}: ${body.error.message}`);
    }
    await this.appender?.append({ key, case_id: judgeCase.id, run, prediction: body });
    return body;
  }

  /** Emits the predictions ready in slot order, after those already being emitted. */
  private flush(): Promise<void> {
    this.emitting = this.emitting.then(async () => {
      while (this.nextToEmit < this.slots.length && this.slots[this.nextToEmit] !== undefined) {
        const prediction = this.slots[this.nextToEmit]!;
        this.slots[this.nextToEmit] = undefined;
        this.nextToEmit++;
        this.summary.predictions++;
        await this.emit(prediction);
      }
    });
    return this.emitting;
  }
}
