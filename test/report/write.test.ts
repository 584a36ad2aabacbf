import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { InputError } from "../../src/io/errors.js";
import type { ExplorerData } from "../../src/report/explorer.js";
import { renderHtml } from "../../src/report/html.js";
import { parseReportFormats, writeReportFiles } from "../../src/report/write.js";
import { validateReport } from "../../src/report/schema.js";
import { tempDir } from "../support/cli.js";
import { fixtureReport } from "./fixture.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

describe("parseReportFormats", () => {
  it("defaults to every format and always includes json", () => {
    expect(parseReportFormats(undefined)).toEqual(["json", "md", "html", "junit"]);
    expect(parseReportFormats("md")).toEqual(["json", "md"]);
    expect(parseReportFormats(" junit , markdown,JSON ")).toEqual(["json", "md", "junit"]);
    expect(parseReportFormats(["html"])).toEqual(["json", "html"]);
  });
  it("rejects unknown names", () => {
    expect(() => parseReportFormats("json,pdf")).toThrow(InputError);
    expect(() => parseReportFormats("json,pdf")).toThrow('--report: unknown format "pdf" (choose from json, md, html, junit)');
    expect(() => parseReportFormats(",")).toThrow(InputError);
  });
});

describe("writeReportFiles", () => {
  const saved = process.env.MARI_TEST_API_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.MARI_TEST_API_KEY;
    else process.env.MARI_TEST_API_KEY = saved;
  });

  it("writes the chosen formats atomically and returns their paths", async () => {
    const out = join(dir, "out", "nested");
    const written = await writeReportFiles(out, fixtureReport(), ["md", "junit"], { inputErrors: ["slice.jsonl:2: bad"] });
    expect(written).toEqual([join(out, "report.json"), join(out, "report.md"), join(out, "report.junit.xml")]);
    expect(readdirSync(out).sort()).toEqual(["report.json", "report.junit.xml", "report.md"]);
    const json = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
    expect(validateReport(json)).toEqual([]);
    expect(json).toEqual(JSON.parse(JSON.stringify(fixtureReport())));
    expect(readFileSync(join(out, "report.junit.xml"), "utf8")).toContain('<error message="slice.jsonl:2: bad"');
  });

  it("writes report.html with its case explorer as renderHtml gives it, whether or not there is a secret to scrub", async () => {
    // Text past U+00FF in one case only: the page is encoded piece by piece, the same bytes.
    const explorer: ExplorerData = {
      kind: "documents",
      total: 2,
      shown: 2,
      selection: "All 2 cases are shown.",
      rest: "cases.jsonl beside this page",
      runs: 1,
      facets: ["scope"],
      counts: { tags: { fn: 1 }, facets: { scope: { local: 2 } } },
      cases: [
        {
          id: "a",
          tags: ["fn"],
          facets: { scope: "local" },
          score: 0.5,
          doc: { label: true, sentences: ["Łódź – Zürich</script>", "\u2028"], gold: [1], runs: [] },
        },
        { id: "b", tags: [], facets: { scope: "local" }, score: null, doc: { label: false, sentences: ["plain"], gold: [], runs: [] } },
      ],
    };
    for (const secret of [undefined, "sk-test-0123456789abcdef"]) {
      if (secret === undefined) delete process.env.MARI_TEST_API_KEY;
      else process.env.MARI_TEST_API_KEY = secret;
      const out = join(dir, `page-${secret === undefined ? "plain" : "secret"}`);
      await writeReportFiles(out, fixtureReport(), ["html"], { explorer });
      expect(readFileSync(join(out, "report.html"))).toEqual(Buffer.from(renderHtml(fixtureReport(), explorer)));
    }
  });

  it("never writes the value of a secret environment variable", async () => {
    process.env.MARI_TEST_API_KEY = "sk-test-0123456789abcdef";
    const report = fixtureReport({ rejection_examples: [{ where: "d.jsonl:1", reason: "bad_judgment", message: "model said sk-test-0123456789abcdef" }] });
    const out = join(dir, "secret");
    await writeReportFiles(out, report, ["json", "md", "html", "junit"]);
    for (const file of readdirSync(out)) {
      const text = readFileSync(join(out, file), "utf8");
      expect(text).not.toContain("sk-test-0123456789abcdef");
      // Redacted before rendering, so Markdown escapes the brackets like any other text.
      if (file === "report.md") expect(text).toContain("\\[redacted\\]");
      else if (file !== "report.junit.xml") expect(text).toContain("[redacted]");
    }
  });
});
