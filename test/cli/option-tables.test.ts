// The docs' flag tables are written from the option table (scripts/write-option-tables.mjs): a page
// whose marked table differs from what the declarations give fails here.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionTable, writeOptionTables } from "../../src/cli/options/doc-tables.js";
import { ROOT } from "../support/cli.js";

const DOCS = join(ROOT, "docs");

describe("docs flag tables", () => {
  const pages = readdirSync(DOCS).filter((name) => name.endsWith(".md"));

  for (const name of pages) {
    it(`docs/${name}: its marked tables are the option table's (node scripts/write-option-tables.mjs rewrites them)`, () => {
      const text = readFileSync(join(DOCS, name), "utf8");
      expect(writeOptionTables(text)).toBe(text);
    });
  }

  it("eval's and predict's flags are documented from the table", () => {
    const marked = pages.flatMap((name) => [...readFileSync(join(DOCS, name), "utf8").matchAll(/<!-- options: (\S+) /g)].map((m) => m[1]));
    expect(marked).toEqual(expect.arrayContaining(["eval", "predict"]));
    // A row per documented option, with the declared default in it.
    const evalTable = optionTable("eval", ["flag", "example", "meaning"]);
    expect(evalTable).toContain("| `--bootstrap B` | `--bootstrap 2000` | bootstrap resamples (default 1000; 0 skips it");
    expect(optionTable("predict", ["flag", "default", "meaning"])).toContain("| `--concurrency N` | 4 | requests in flight (`p-limit`) |");
  });

  it("every command page's flag table is written from the table: none is left by hand", () => {
    const marked = pages.flatMap((name) => [...readFileSync(join(DOCS, name), "utf8").matchAll(/<!-- options: (\S+) /g)].map((m) => m[1]));
    expect(marked).toEqual(expect.arrayContaining(["eval", "predict", "eval/pairs", "sweep", "evidence", "serve"]));
    for (const name of pages) {
      const unmarked = readFileSync(join(DOCS, name), "utf8").replace(/<!-- options: [^\n]*-->\n[\s\S]*?<!-- \/options -->/g, "");
      expect(
        unmarked.split("\n").filter((line) => /^\| flag \| (example|default) \|/.test(line)),
        `docs/${name}`,
      ).toEqual([]);
    }
    // A page's own view of a command, several rows for one option, the declared default in the default column.
    expect(optionTable("eval/pairs", ["flag", "example", "meaning"])).toContain("| `--costs FILE` | `--costs prices.json` | unit prices for RevisionCost");
    expect(optionTable("sweep", ["flag", "meaning"]).match(/\| `--grid /g)).toHaveLength(3);
    expect(optionTable("serve", ["flag", "default", "meaning"])).toContain("| `--port N` | 8000 | port;");
    expect(optionTable("evidence", ["flag", "example", "meaning"])).toContain("counts (default 0.5) |");
  });

  it("a page naming an unknown command or column is refused, not left as it was", () => {
    expect(() => writeOptionTables("<!-- options: evaluate flag -->\n<!-- /options -->")).toThrow(/unknown command evaluate/);
    expect(() => writeOptionTables("<!-- options: evaluate/pairs flag -->\n<!-- /options -->")).toThrow(/unknown command evaluate/);
    expect(() => writeOptionTables("<!-- options: eval flag,colour -->\n<!-- /options -->")).toThrow(/unknown column\(s\) colour/);
  });
});
