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

/** The host name of a `Host` header (`127.0.0.1:8000`, `[::1]:8000`, `localhost`), lower-cased. */
function hostName(header: string): string {
  const text = header.trim().toLowerCase();
  if (text.startsWith("[")) return text.slice(1, text.indexOf("]") === -1 ? undefined : text.indexOf("]"));
  const colon = text.lastIndexOf(":");
  return colon === -1 ? text : text.slice(0, colon);
}

/**
 * Without a token, a request must come from this machine's own software, not from a web page the
 * user visits: its `Host` names a loopback address (a DNS-rebound name does not) and an `Origin`, when
 * a browser sends one, is a loopback one too. Returns the problem, or undefined when it may pass.
 */
export function loopbackRequestProblem(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (host === undefined || !isLoopbackHost(hostName(host)))
    return `Host ${JSON.stringify(host ?? "")} is not a loopback address (start with --token-env to serve other names)`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== "null") {
    let name: string;
    try {
      name = new URL(origin).hostname.replace(/^\[|\]$/g, "");
    } catch {
      return `Origin ${JSON.stringify(origin)} is not a URL`;
    }
    if (!isLoopbackHost(name)) return `requests from web pages (Origin ${JSON.stringify(origin)}) are refused`;
  } else if (origin === "null") return "requests from web pages (Origin null) are refused";
  return undefined;
}
