// Reports must never carry credentials or the environment (docs/hostile-input.md). Two guards: credential-like
// config members are blanked by name, and every rendered report is scrubbed of the values of
// credential-like environment variables, in case one reached it some other way (e.g. echoed by a model).
import { embedJson, escapeCell, escapeHtml, escapeXml } from "./escape.js";

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
 * The forms a value takes once written into a report: as it is, JSON-escaped once (a string in
 * report.json) or twice (a quoted dump line inside report.json), each of those embedded in a page
 * (`<`, U+2028, U+2029 as \u escapes), HTML- or XML-escaped, or escaped for a Markdown cell. A key
 * with `"`, `<`, a TAB or U+2028 would otherwise survive in a recoverable form.
 */
export function writtenForms(value: string): string[] {
  const json1 = JSON.stringify(value).slice(1, -1);
  const json2 = JSON.stringify(json1).slice(1, -1);
  const forms = [embedJson(value).slice(1, -1), embedJson(json1).slice(1, -1)];
  for (const text of [value, json1, json2]) forms.push(text, escapeHtml(text), escapeXml(text), escapeCell(text));
  return forms;
}

/** Credential-like environment variables: name → value (the ones scrubbed from reports). */
function secretEnv(env: NodeJS.ProcessEnv): Array<[string, string]> {
  return Object.entries(env).filter((entry): entry is [string, string] => {
    const [name, value] = entry;
    return value !== undefined && value.length >= MIN_SECRET_LENGTH && SECRET_ENV_NAME.test(name);
  });
}

/** Values of credential-like environment variables, longest first, each in every form of `writtenForms`. */
export function secretEnvValues(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set<string>();
  for (const [, value] of secretEnv(env)) for (const form of writtenForms(value)) values.add(form);
  return [...values].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A finder of the first credential-like environment variable whose value (in any written form) a
 * text contains (its name, or null). The environment is read and its values' written forms made
 * once, for every text (reading `process.env` again for each of 100,000 run keys took longer than
 * scoring them).
 */
export function secretEnvFinder(env: NodeJS.ProcessEnv = process.env): (text: string) => string | null {
  const secrets = secretEnv(env).map(([name, value]) => [name, writtenForms(value)] as const);
  return (text) => {
    for (const [name, forms] of secrets) if (forms.some((form) => text.includes(form))) return name;
    return null;
  };
}

/**
 * A copy of `value` whose strings (member names included) have every secret replaced by
 * "[redacted]": applied to a report before it is rendered, so each rendering escapes the redacted
 * text and no escaping can carry a secret past the text-level scrub. Plain objects and arrays are
 * copied; anything else (typed arrays) is kept as it is.
 */
export function redactStrings<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactSecrets(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    const copy: Record<string, unknown> = proto === null ? Object.create(null) : {};
    for (const [key, member] of Object.entries(v)) {
      Object.defineProperty(copy, redactSecrets(key, secrets), { value: walk(member), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  };
  return walk(value) as T;
}

/** `text` with every occurrence of a secret value replaced by "[redacted]". */
export function redactSecrets(text: string, secrets: readonly string[] = secretEnvValues()): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}
