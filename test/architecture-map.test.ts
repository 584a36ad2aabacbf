// ARCHITECTURE.md is the map of src/: each folder of src/ has its own section (a `### \`src/…/\``
// heading), and every source file is named in the section of the folder it is in, not anywhere
// else in the document; a file the section's "Files:" list names must exist. So a file added, moved
// or removed without a word in the map fails here.
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** The folder sections of the map: folder (e.g. "src/core/document") → the section's text. */
function folderSections(map: string): Map<string, string> {
  const sections = new Map<string, string>();
  const headings = [...map.matchAll(/^### `(src(?:\/[^`]*)?)\/?`$/gm)];
  for (const heading of headings) {
    const start = heading.index! + heading[0].length;
    const rest = map.slice(start);
    const next = rest.search(/^##/m);
    sections.set(heading[1]!.replace(/\/$/, ""), next === -1 ? rest : rest.slice(0, next));
  }
  return sections;
}

describe("ARCHITECTURE.md", () => {
  const map = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
  const sections = folderSections(map);
  const files = sourceFiles(join(ROOT, "src"));

  it("has a section for every folder of src/ that holds source files", () => {
    expect(files.length).toBeGreaterThan(200);
    const folders = [...new Set(files.map((f) => dirname(f)))].sort();
    expect(folders.filter((folder) => !sections.has(folder))).toEqual([]);
  });

  it("names every file of src/ in its own folder's section", () => {
    const misplaced = files.filter((file) => !sections.get(dirname(file))?.includes(`\`${basename(file)}\``));
    expect(misplaced).toEqual([]);
  });

  it("lists no file that is not there", () => {
    const stale: string[] = [];
    for (const [folder, text] of sections) {
      const start = text.indexOf("\nFiles: ");
      const end = text.indexOf("\n\n", start + 1);
      const list = start === -1 ? "" : text.slice(start, end === -1 ? undefined : end);
      for (const [, name] of list.matchAll(/`([^`]+\.(?:ts|js))`/g)) {
        if (!files.includes(`${folder}/${name}`)) stale.push(`${folder}/${name}`);
      }
    }
    expect(stale).toEqual([]);
  });
});
