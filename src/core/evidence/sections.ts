// Markdown sections of a document body (docs/evidence.md): flat sections from one ATX
// heading to the next of any level, slug-path ids, SHA-256 section revisions. Offsets are code
// points. The reference's corners are kept on purpose: no code-fence awareness, "\n"-only lines,
// `## Title ##` keeps its closing hashes in the title, duplicate ids can collide.

import { pythonCasefold } from "../python/text.js";
import type { KnowledgeDocument } from "./documents.js";
import { codePointLength } from "../python/text.js";
import { stripPythonWhitespace } from "../python/whitespace.js";
import { sha256OfText } from "./sha256.js";

export interface DocumentSection {
  readonly section_id: string;
  readonly title: string;
  /** Heading level 1–6; 0 for "preamble" and "root". */
  readonly level: number;
  /** Code-point offsets into the body, half-open. */
  readonly start: number;
  readonly end: number;
  /** body[start:end]. */
  readonly text: string;
  /** Lowercase hex SHA-256 of the section text's UTF-8 bytes (no "sha256:" prefix). */
  readonly revision: string;
}

interface Heading {
  /** UTF-16 index of the heading line's first character. */
  readonly at: number;
  readonly level: number;
  readonly title: string;
}

function findHeadings(body: string): Heading[] {
  const headings: Heading[] = [];
  // Python's multiline ^ and $ break only at "\n" (JavaScript's also at "\r", "\u2028", "\u2029"),
  // so the body is cut at "\n" alone and each line that starts with "#" is tested.
  let lineStart = 0;
  while (lineStart <= body.length) {
    let lineEnd = body.indexOf("\n", lineStart);
    if (lineEnd === -1) lineEnd = body.length;
    if (body.charCodeAt(lineStart) === 0x23 /* # */) {
      const heading = parseHeadingLine(body.slice(lineStart, lineEnd));
      if (heading) headings.push({ at: lineStart, ...heading });
    }
    lineStart = lineEnd + 1;
  }
  return headings;
}

// Python: ^(#{1,6})[ \t]+(.+?)[ \t]*$ (re.MULTILINE), title = group 2 stripped. So: 1–6 hashes,
// a space or tab, and at least one more character on the line ("#  " is a heading titled "").
function parseHeadingLine(line: string): { level: number; title: string } | null {
  let level = 0;
  while (level < line.length && line.charCodeAt(level) === 0x23) level++;
  if (level > 6) return null;
  const gap = line.charCodeAt(level);
  if (gap !== 0x20 && gap !== 0x09) return null;
  if (line.length < level + 2) return null;
  return { level, title: stripPythonWhitespace(line.slice(level)) };
}

/**
 * "FAQ: What's new?" → "faq-what-s-new"; "Straße" → "strasse"; "" → "section". Python casefold,
 * then runs outside [a-z0-9] become "-", trimmed.
 */
export function sectionSlug(title: string): string {
  const slug = pythonCasefold(title)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? "section" : slug;
}

function makeSection(body: string, id: string, title: string, level: number, from: number, to: number, start: number): DocumentSection {
  const text = body.slice(from, to);
  return Object.freeze({ section_id: id, title, level, start, end: start + codePointLength(text), text, revision: sha256OfText(text) });
}

/** The sections of a body, in order (reference `document_sections`). */
export function bodySections(body: string, documentTitle = ""): DocumentSection[] {
  const headings = findHeadings(body);
  if (headings.length === 0) return [makeSection(body, "root", documentTitle, 0, 0, body.length, 0)];
  const sections: DocumentSection[] = [];
  if (headings[0]!.at > 0) sections.push(makeSection(body, "preamble", documentTitle, 0, 0, headings[0]!.at, 0));
  const path: string[] = [];
  const seen = new Map<string, number>();
  headings.forEach((heading, index) => {
    // The path keeps the unsuffixed slug, so children of a second "# A" are "a/b-2".
    path.length = Math.min(path.length, heading.level - 1);
    path.push(sectionSlug(heading.title));
    const rawId = path.join("/");
    const count = (seen.get(rawId) ?? 0) + 1;
    seen.set(rawId, count);
    const id = count === 1 ? rawId : `${rawId}-${count}`;
    const to = index + 1 < headings.length ? headings[index + 1]!.at : body.length;
    // Sections tile the body, so each starts where the previous one ended.
    const start = sections.length > 0 ? sections[sections.length - 1]!.end : 0;
    sections.push(makeSection(body, id, heading.title, heading.level, heading.at, to, start));
  });
  return sections;
}

export function documentSections(document: Pick<KnowledgeDocument, "body" | "title">): DocumentSection[] {
  return bodySections(document.body, document.title);
}

/** Key of `sectionRevisions`: the (document_id, section_id) pair. */
export function sectionKey(documentId: string, sectionId: string): string {
  return JSON.stringify([documentId, sectionId]);
}

/**
 * (document_id, section_id) → section revision for every section of every document. With colliding
 * section ids the later section wins, as in the reference's dict.
 */
export function sectionRevisions(documents: readonly KnowledgeDocument[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const document of documents) {
    for (const section of documentSections(document)) out.set(sectionKey(document.document_id, section.section_id), section.revision);
  }
  return out;
}
