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

/** Accepts a request whose `Authorization` header is exactly `Bearer <token>`. */
export function bearerTokenCheck(token: string): TokenCheck {
  const expected = digest(`Bearer ${token}`);
  return (req) => {
    const header = req.headers.authorization;
    return typeof header === "string" && timingSafeEqual(digest(header), expected);
  };
}
