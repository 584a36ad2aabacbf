// A minimal OpenAI-compatible chat-completions client for judging: sampling settings fixed by the
// caller, JSON response format where the server accepts it, a timeout per attempt
// (AbortController), and retries with back-off on 429 (Retry-After honoured), 408, 5xx, network
// errors, timeouts and unreadable bodies. 401/403/404 are configuration problems and end the run;
// another 4xx fails that one request.
import { parseRetryAfter, retryDelayMs, type BackoffPolicy } from "./backoff.js";
import { chatRequestBody, readChatCompletion, type ChatRequestSettings, type TokenUsage } from "./chat-request.js";
import { unreachableCause } from "./reachability.js";
import type { ChatMessage } from "./prompt.js";
import type { JudgeErrorCode } from "./types.js";
import { redactSecrets, writtenForms } from "../report/redact.js";

export interface ChatClientOptions extends ChatRequestSettings {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  backoff: BackoffPolicy;
  /** Ask for `response_format: {type: "json_object"}` (turned off for the run on a 400 that rejects it). */
  jsonMode?: boolean;
  /** Injected in tests; defaults to a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry with a redacted description (for stderr diagnostics). */
  onRetry?: (info: { requestKey: string; attempt: number; delayMs: number; cause: string }) => void;
}

export type ChatResult =
  | { ok: true; content: string | null; finishReason: string | null; usage?: TokenUsage | undefined; attempts: number }
  | { ok: false; code: JudgeErrorCode; message: string; attempts: number };

/** A response no retry can fix (bad key, unknown model, wrong URL): the whole run stops. */
export class ChatConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChatConfigError";
  }
}

export function chatCompletionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return trimmed.endsWith("/chat/completions") ? trimmed : `${trimmed}/chat/completions`;
}

const BODY_EXCERPT_CHARS = 300;

/** Servers reject an unsupported `response_format` with a 400 that names it. */
function rejectsJsonMode(body: string): boolean {
  return /response_format|json_object|json mode/i.test(body);
}

type Attempt =
  | { kind: "ok"; content: string | null; finishReason: string | null; usage?: TokenUsage | undefined }
  | { kind: "retry"; cause: string; retryAfterMs?: number | undefined; code?: JudgeErrorCode }
  | { kind: "json_mode_rejected" }
  | { kind: "rejected"; cause: string }
  | { kind: "fatal"; cause: string };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ChatClient {
  private jsonMode: boolean;
  /** Whether any response (of any status) arrived: until then an unreachable URL ends the run. */
  private reached = false;
  private readonly url: string;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ChatClientOptions) {
    this.jsonMode = options.jsonMode ?? true;
    this.url = chatCompletionsUrl(options.baseUrl);
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Whether requests still carry `response_format` (false after the server rejected it). */
  get usesJsonMode(): boolean {
    return this.jsonMode;
  }

  /** The API key in every form a server could echo it in (raw, JSON-escaped, HTML-escaped…). */
  private keyForms: string[] | undefined;

  private redact(text: string): string {
    // A server may echo the key back (e.g. in a 401 body): scrub every text that leaves the client.
    // Longest form first, as secretEnvValues orders them: a form never hides inside a shorter one.
    if (this.options.apiKey === "") return text;
    this.keyForms ??= [...new Set(writtenForms(this.options.apiKey))].sort((a, b) => b.length - a.length);
    return redactSecrets(text, this.keyForms);
  }

  /** Sends one chat request with retries; `requestKey` seeds the jitter and names the request. */
  async complete(messages: readonly ChatMessage[], requestKey: string, run = 0): Promise<ChatResult> {
    let retries = 0;
    let attempts = 0;
    for (;;) {
      attempts++;
      const outcome = await this.attempt(messages, run);
      if (outcome.kind === "ok") {
        const content = outcome.content === null ? null : this.redact(outcome.content);
        return { ok: true, content, finishReason: outcome.finishReason, usage: outcome.usage, attempts };
      }
      if (outcome.kind === "fatal") throw new ChatConfigError(this.redact(outcome.cause));
      if (outcome.kind === "json_mode_rejected") {
        // Not the request's fault: drop the JSON response format for the rest of the run and resend.
        this.jsonMode = false;
        continue;
      }
      if (outcome.kind === "rejected") return { ok: false, code: "request_failed", message: this.redact(outcome.cause), attempts };
      if (retries >= this.options.maxRetries) {
        const message = this.redact(`${outcome.cause} (gave up after ${attempts} attempts)`);
        return { ok: false, code: outcome.code ?? "request_failed", message, attempts };
      }
      const delayMs = retryDelayMs(this.options.backoff, requestKey, retries, outcome.retryAfterMs);
      this.options.onRetry?.({ requestKey, attempt: retries + 1, delayMs, cause: this.redact(outcome.cause) });
      retries++;
      await this.sleep(delayMs);
    }
  }

  private async attempt(messages: readonly ChatMessage[], run: number): Promise<Attempt> {
    const usedJsonMode = this.jsonMode;
    const body = chatRequestBody(this.options, messages, run, usedJsonMode);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${this.options.apiKey}`,
        },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      this.reached = true;
      const text = await response.text();
      const excerpt = text.slice(0, BODY_EXCERPT_CHARS);
      if (response.status === 429) {
        return {
          kind: "retry",
          cause: `HTTP 429 rate limited: ${excerpt}`,
          retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
        };
      }
      if (response.status === 408 || response.status >= 500) {
        return { kind: "retry", cause: `HTTP ${response.status}: ${excerpt}` };
      }
      if (response.status === 400 && usedJsonMode && rejectsJsonMode(text)) return { kind: "json_mode_rejected" };
      if (response.status === 401 || response.status === 403 || response.status === 404) {
        return { kind: "fatal", cause: `${this.url} answered HTTP ${response.status}: ${excerpt}` };
      }
      // Another 4xx is about this request (e.g. a document beyond the context window): no retry.
      if (!response.ok) return { kind: "rejected", cause: `HTTP ${response.status}: ${excerpt}` };
      return readContent(text);
    } catch (err) {
      if (controller.signal.aborted) return { kind: "retry", cause: `timed out after ${this.options.timeoutMs} ms` };
      const cause = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
      const unreachable = this.reached ? undefined : unreachableCause(err);
      if (unreachable !== undefined) return { kind: "fatal", cause: `cannot reach ${this.url}: ${unreachable} (${cause})` };
      return { kind: "retry", cause: `request failed: ${cause}` };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `choices[0].message.content` of a 200 body; an unreadable body is retried like a 5xx. */
function readContent(text: string): Attempt {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: "retry", cause: `response body is not JSON: ${text.slice(0, BODY_EXCERPT_CHARS)}` };
  }
  const read = readChatCompletion(parsed);
  if (!read.ok) return { kind: "retry", cause: read.message, code: read.code };
  return { kind: "ok", content: read.content, finishReason: read.finishReason, usage: read.usage };
}
