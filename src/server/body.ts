// Reads one request body for `mari serve` under a byte limit (413), and the error a refused
// request is answered with. Parsing the body is body-json.ts's, loaded with the scorer.
import type { IncomingMessage } from "node:http";

export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Further fields of the error object (e.g. the unresolved items of a 422). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "RequestError";
  }
}

/**
 * A body over the limit is still read to its end (up to DRAIN_BYTES) before the 413 is answered: a
 * client that is still sending when the server answers and closes gets a broken pipe instead of the
 * 413 (Python's requests raises ConnectionError). Past DRAIN_BYTES the connection is cut.
 */
const DRAIN_BYTES = 64 * 1024 * 1024;

/** Spare body buffers kept, and the largest kept (a larger body gets a buffer of its own each time). */
const SPARE_BODIES = 2;
const MAX_SPARE_BYTES = 16 * 1024 * 1024;

/**
 * Buffers reused for the bodies scored on the server's own thread: a fresh buffer of megabytes per
 * request is paid again each time in page faults and in the garbage collections its external memory
 * brings (measured: 1–2 ms of a 6.5 MB /get_reward body).
 */
export class BodyBuffers {
  private readonly spare: Buffer[] = [];

  /** A buffer of `size` bytes, not zeroed. */
  take(size: number): Buffer {
    const i = this.spare.findIndex((b) => b.length >= size);
    return i === -1 ? Buffer.allocUnsafeSlow(size) : this.spare.splice(i, 1)[0]!.subarray(0, size);
  }

  /** Takes back a body from `take` once nothing reads it any more. */
  give(body: Buffer): void {
    const whole = Buffer.from(body.buffer, 0, body.buffer.byteLength);
    if (this.spare.length < SPARE_BODIES && whole.length <= MAX_SPARE_BYTES) this.spare.push(whole);
  }
}

/**
 * The body's bytes; RequestError 413 when it exceeds `maxBytes`, once the client has sent it. In a
 * buffer from `buffers` when given (give it back), else owning its whole ArrayBuffer.
 */
export function readBody(req: IncomingMessage, maxBytes: number, buffers?: BodyBuffers): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > DRAIN_BYTES) {
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    let over = Number.isFinite(declared) && declared > maxBytes;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > DRAIN_BYTES) {
        failed = true;
        reject(tooLarge(maxBytes));
        return;
      }
      if (!over && size > maxBytes) {
        over = true;
        chunks.length = 0;
      }
      if (!over) chunks.push(chunk);
    });
    req.on("end", () => {
      if (failed) return;
      if (over) {
        failed = true;
        reject(tooLarge(maxBytes));
        return;
      }
      // In a buffer of its own (not a view into a socket's chunk or Buffer's pool), so that it can
      // be moved to a scoring thread, or in a kept one when it is scored here; not zeroed first,
      // since every byte is written.
      const body = buffers ? buffers.take(size) : Buffer.allocUnsafeSlow(size);
      let at = 0;
      for (const chunk of chunks) {
        body.set(chunk, at);
        at += chunk.length;
      }
      resolve(body);
    });
    // A client that goes away mid-body: nothing to answer, but the promise must settle.
    const aborted = (): void => {
      if (failed || req.complete) return;
      failed = true;
      reject(new RequestError(400, "aborted", "the client closed the connection before sending the whole body"));
    };
    req.on("error", aborted);
    req.on("close", aborted);
  });
}

function tooLarge(maxBytes: number): RequestError {
  return new RequestError(413, "body_too_large", `request body is larger than --max-body (${maxBytes} bytes)`);
}
