// How each report format escapes untrusted text (case ids, messages, model output): HTML, XML, a
// Markdown table cell, JSON inside a page. Apart from the renderers because the secret scrub
// (redact.ts) writes a secret in every one of these forms on every run, and a run loads only the
// renderers of the formats it writes.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

// XML 1.0 allows only these characters; anything else (NUL, other C0 controls, lone surrogates,
// U+FFFE/U+FFFF) makes the whole file unreadable, so it is dropped.
const XML_FORBIDDEN = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return text.replace(XML_FORBIDDEN, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/**
 * Makes untrusted text (case ids, model output, file names) safe inside a table cell: `|` would
 * end the cell, a newline the row, and raw HTML (a `<` tag, an `&…;` entity) would be interpreted
 * by job-summary renderers. A lone `>`, `&` or `<=` is harmless and stays readable (`accuracy>=0.6`).
 */
export function escapeCell(text: string): string {
  return (
    text
      .replace(/&(?=#?[A-Za-z0-9]+;)/g, "&amp;")
      // Only a `<` that could open a tag, comment or autolink (letter, `/`, `!`, `?`) is escaped,
      // so `restatement_to_update_rate<=0.05` stays readable in the raw file.
      .replace(/<(?=[A-Za-z/!?])/g, "&lt;")
      .replace(/\\/g, "\\\\")
      .replace(/\|/g, "\\|")
      .replace(/`/g, "\\`")
      // No links or images from untrusted text (an image URL would be fetched by the viewer).
      .replace(/[[\]]/g, "\\$&")
      // Nor bare URLs or e-mail addresses: GFM would turn `https://…`, `www.…` and `a@b.c` into links.
      // A character reference is shown as the character but does not start an autolink.
      .replace(/:\/\//g, "&#58;//")
      .replace(/\b(www)\./gi, "$1&#46;")
      .replace(/@/g, "&#64;")
      .replace(/\r\n|\r|\n/g, "<br>")
  );
}

/** JSON for a <script type="application/json"> block: no `<` survives, so nothing can end the block. */
export function embedJson(value: unknown): string {
  return escapeEmbedded(JSON.stringify(value));
}

/** How many elements of the array embedJsonPieces splits make one piece. */
export const ELEMENTS_PER_PIECE = 16;

/**
 * embedJson of an object in pieces, one per `perPiece` elements of its array member `key` (the rest
 * as one piece before and one after), that join to embedJson(value): the members as JSON.stringify
 * writes an object's (own enumerable keys in order, no `undefined` or function members, an array's
 * `undefined` as null). On a page of several megabytes, a text that V8 must hold as two-byte (one
 * character past U+00FF) then makes only its own piece two-byte, not the whole page, whose UTF-8
 * encoding (and the escapes' scans) otherwise take the slow path. Pieces of one element each took
 * a quarter longer to stringify, escape and encode than pieces of 16 (the GRPO bench page's 2,000
 * cases: a call of each per piece). For plain data only (no toJSON).
 */
export function embedJsonPieces(value: object, key: string, perPiece = ELEMENTS_PER_PIECE): string[] {
  const pieces: string[] = [];
  let text = "{";
  let first = true;
  for (const name of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[name];
    if (name === key && Array.isArray(member)) {
      pieces.push(escapeEmbedded(`${text}${first ? "" : ","}${JSON.stringify(name)}:[`));
      for (let i = 0; i < member.length; i += perPiece) {
        if (i > 0) pieces.push(",");
        // The elements as the array's JSON has them, without its brackets.
        pieces.push(escapeEmbedded(JSON.stringify(member.slice(i, i + perPiece)).slice(1, -1)));
      }
      text = "]";
    } else {
      const json = JSON.stringify(member);
      if (json === undefined) continue;
      text += `${first ? "" : ","}${JSON.stringify(name)}:${json}`;
    }
    first = false;
  }
  pieces.push(escapeEmbedded(`${text}}`));
  return pieces;
}

/** A JSON text with `<` and the two line separators escaped (each one character, so a text escapes alike whole or in pieces). */
function escapeEmbedded(json: string): string {
  // replaceAll of a string, not a regular expression: on a page of several megabytes the three
  // regular-expression passes cost ten times as much; the two line separators are rare.
  let out = json.replaceAll("<", "\\u003c");
  if (out.includes("\u2028")) out = out.replaceAll("\u2028", "\\u2028");
  if (out.includes("\u2029")) out = out.replaceAll("\u2029", "\\u2029");
  return out;
}
