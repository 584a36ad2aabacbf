// The suite's own rule for synchronous children (spawnSync, execFileSync, execSync): a test's
// timeout cannot interrupt a synchronous call, so each one carries a limit of its own (SYNC_CHILD of
// test/support/children.ts, or an explicit `timeout`), else a hung child would hang the whole run.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";

const CALL = /\b(spawnSync|execFileSync|execSync)\(/g;

/** The text of the call whose opening parenthesis is at `open`, up to its closing one (strings skipped). */
function callText(source: string, open: number): string {
  let depth = 0;
  let quote = "";
  for (let i = open; i < source.length; i++) {
    const c = source[i]!;
    if (quote !== "") {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || c === "`") quote = c;
    else if ("([{".includes(c)) depth++;
    else if (")]}".includes(c) && --depth === 0) return source.slice(open, i + 1);
  }
  return source.slice(open);
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : testFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("synchronous children of the suite", () => {
  it("each carries a limit of its own (SYNC_CHILD or a timeout)", () => {
    const unlimited: string[] = [];
    let calls = 0;
    for (const file of testFiles(join(ROOT, "test"))) {
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(CALL)) {
        const lineStart = source.lastIndexOf("\n", match.index) + 1;
        if (source.slice(lineStart, match.index).trimStart().startsWith("import")) continue;
        calls++;
        const call = callText(source, match.index + match[0].length - 1);
        if (!call.includes("SYNC_CHILD") && !/\btimeout\s*:/.test(call)) {
          unlimited.push(`${relative(ROOT, file)}:${source.slice(0, match.index).split("\n").length}`);
        }
      }
    }
    // The check found the calls it is about (this file's own CALL pattern is not a call).
    expect(calls).toBeGreaterThan(30);
    expect(unlimited).toEqual([]);
  });
});
