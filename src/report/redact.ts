// Reports must never carry credentials or the environment (docs/hostile-input.md). Two guards: credential-like
// config members are blanked by name, and every rendered report is scrubbed of the values of
// credential-like environment variables, in case one reached it some other way (e.g. echoed by a model).

// Config members whose names look like credentials are blanked before they reach a report. The
// name of an environment variable that holds a key (`api_key_env`) is not itself a secret.
const SECRET_NAME = /(api[_-]?key|apikey|token|secret|password|passwd|authorization|credentials?)$/i;
export const REDACTED = "[redacted]";

/** A copy of `config` with credential-like members replaced by "[redacted]", at any depth. */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  return redactValue(config) as Record<string, unknown>;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const safe = SECRET_NAME.test(key) && member !== null && member !== undefined ? REDACTED : redactValue(member);
    // defineProperty: a "__proto__" key stays an ordinary member instead of replacing the prototype.
    Object.defineProperty(copy, key, { value: safe, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const SECRET_ENV_NAME = /(key|token|secret|password|passwd|credential|auth)/i;
// Short values ("1", "true") would redact ordinary text; real keys are long.
const MIN_SECRET_LENGTH = 8;

/**
 * Values of credential-like environment variables, longest first, each also in the forms it takes
 * once written into JSON or HTML/XML (a `"` or `&` in a key would otherwise slip through).
 */
export function secretEnvValues(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH || !SECRET_ENV_NAME.test(name)) continue;
    values.add(value);
    values.add(JSON.stringify(value).slice(1, -1));
    values.add(value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;"));
    values.add(value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;"));
  }
  return [...values].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

/** `text` with every occurrence of a secret value replaced by "[redacted]". */
export function redactSecrets(text: string, secrets: readonly string[] = secretEnvValues()): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
