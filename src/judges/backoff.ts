// Retry timing for a model judge: exponential back-off with "equal jitter", the jitter drawn from
// a hash of (seed, request, attempt) rather than a shared random stream, so the delays a request
// sees do not depend on how the other concurrent requests were scheduled.
import { createHash } from "node:crypto";

/** Longest wait we accept from a server's Retry-After (a guard against absurd values). */
export const MAX_RETRY_AFTER_MS = 10 * 60 * 1000;

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  seed: number;
}

/** A uniform number in [0, 1) determined by the seed, the request and the attempt. */
export function seededUnit(seed: number, requestKey: string, attempt: number): number {
  const digest = createHash("sha256").update(`${seed}\u0000${requestKey}\u0000${attempt}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/**
 * Delay before retry number `attempt` (0 = the first retry). A server's Retry-After is honoured as
 * given (never shortened by our own schedule); otherwise min(maxMs, baseMs·2^attempt), of which the
 * upper half is jittered.
 */
export function retryDelayMs(policy: BackoffPolicy, requestKey: string, attempt: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  const half = ceiling / 2;
  return Math.round(half + half * seededUnit(policy.seed, requestKey, attempt));
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored. */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
