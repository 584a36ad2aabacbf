// ARCHITECTURE.md is the map of src/: every source file is named there (by its file name, in the
// paragraph of its folder), so a file added without a word on what it does fails here.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

describe("ARCHITECTURE.md", () => {
  it("names every file of src/", () => {
    const map = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
    const files = sourceFiles(join(ROOT, "src"));
    expect(files.length).toBeGreaterThan(200);
    const unnamed = files.filter((file) => !map.includes(`\`${basename(file)}\``) && !map.includes(`/${basename(file)}\``));
    expect(unnamed).toEqual([]);
  });
});
