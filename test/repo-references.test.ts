// Comments and docs point only to what the repository holds: no "SPEC §", "lessons §",
// "reference-semantics", "contradict-algorithm.md", "Appendix A" or "issue N" (documents and
// numbers a reader of the repository does not have); the content they need is in docs/.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";
import { SYNC_CHILD } from "./support/children.js";

const OUTSIDE = /SPEC §|SPEC Appendix|Appendix A|lessons §|lessons\.md|reference-semantics|contradict-algorithm|\b[Ii]ssues? \d+\b/;

describe("references", () => {
  it("no comment or doc points to a file or issue number outside the repository", () => {
    const files = execFileSync(
      "git",
      ["ls-files", "src", "test", "docs", "scripts", "bench", "bin", "examples", "schema", ".ci", "README.md", "ARCHITECTURE.md"],
      { ...SYNC_CHILD, cwd: ROOT, encoding: "utf8" },
    )
      .split("\n")
      .filter((f) => (/\.(ts|md|mjs|cjs|js|py|json)$/.test(f) || f === ".ci/run") && f !== "test/repo-references.test.ts");
    const found: string[] = [];
    for (const file of files) {
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (OUTSIDE.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    }
    expect(found).toEqual([]);
  });
});
