// Bearer-token check for `mari serve`. Both sides are hashed to a fixed length first, so that
// timingSafeEqual compares equal-length buffers and the time taken says nothing about the token.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export type TokenCheck = (req: IncomingMessage) => boolean;

/** Loopback hosts, on which `mari serve` may run without a token. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

const BEARER = /^Bearer +(\S+) *$/i;

/** Accepts a request whose `Authorization` header is `Bearer <token>` (the scheme in any case, RFC 7235). */
export function bearerTokenCheck(token: string): TokenCheck {
  const expected = digest(token);
  return (req) => {
    const m = BEARER.exec(req.headers.authorization ?? "");
    return m !== null && timingSafeEqual(digest(m[1]!), expected);
  };
}
