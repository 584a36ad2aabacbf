// Which network errors mean "this URL cannot be reached at all" rather than "this request had bad
// luck": a refused connection, a failed DNS lookup, a TLS failure. Until a server has answered
// once, such an error ends the run at once (retrying every case against a closed port would take
// minutes, against an unknown host hours); after that, it is retried like any network error.

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EAI_FAIL"]);
const TLS_CODES = new Set([
  "EPROTO",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** The errno-style code of a fetch failure (undici puts the socket error in `cause`). */
function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** "connection refused", "DNS lookup failed" or "TLS handshake failed"; undefined for other errors. */
export function unreachableCause(err: unknown): string | undefined {
  const code = errorCode(err);
  if (code === undefined) return undefined;
  if (code === "ECONNREFUSED") return "connection refused";
  if (DNS_CODES.has(code)) return "DNS lookup failed";
  if (TLS_CODES.has(code) || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) return "TLS handshake failed";
  return undefined;
}
