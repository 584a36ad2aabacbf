// A secret with `"`, `<`, a TAB or U+2028 in it was scrubbed only in its raw and
// once-escaped forms; it survived in report.json (quoted twice: `\\\"`), report.md, report.html and
// diff.html in a form anyone can unescape. Reports are now redacted before they are rendered.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, expectInputError, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-secret-forms-");
afterAll(() => tmp.cleanup());

// Every character some rendering escapes: `"` and `\` (JSON), `<`, `>`, `&`, `'` (HTML, XML,
// Markdown), TAB (JSON), U+2028 (script embedding), `|` and `@` (Markdown cells).
const SECRET = "sk-AB\"C<D\tE\u2028F>G&H'I\\J|K@L-123";
const MARK = "sk-AB";

/** Python's json.dumps default: every non-ASCII character as \uXXXX. */
const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

describe("a secret in every field a report quotes", () => {
  it("appears in no report or diff file in any form", async () => {
    const slice = firstLines(DOC_SLICE, 20);
    const ids = slice.map((l) => (JSON.parse(l) as { id: string }).id);
    const line = (i: number, extra: Record<string, unknown>) => ({ case_id: ids[i], judgment: "no", evidence_sentence_ids: [], ...extra });
    const dump = [
      JSON.stringify(line(0, { reasoning: `the key is ${SECRET}` })),
      asciiJson(line(1, { reasoning: `again ${SECRET}` })),
      JSON.stringify(line(2, { judgment: `maybe ${SECRET}` })),
      JSON.stringify(line(3, { evidence_sentence_ids: [SECRET] })),
      JSON.stringify(line(4, { case_id: { k: SECRET } })),
      JSON.stringify(line(5, { case_id: SECRET })),
      ...ids.slice(6).map((_, k) => JSON.stringify(line(k + 6, {}))),
    ];
    const slicePath = write(tmp.dir, "slice.jsonl", `${slice.join("\n")}\n`);
    const dumpPath = write(tmp.dir, "dump.jsonl", `${dump.join("\n")}\n`);
    const env = { MY_API_KEY: SECRET };
    const out = join(tmp.dir, "report");
    const r = await runMari(["eval", slicePath, "--predictions", dumpPath, "--out", out, "--quiet", "--progress", "none"], { env });
    expect(r.code, r.stderr).toBe(0);
    const baseline = join(tmp.dir, "baseline");
    const b = await runMari(["eval", slicePath, "--out", baseline, "--quiet", "--progress", "none"], { env });
    expect(b.code, b.stderr).toBe(0);
    const diffOut = join(tmp.dir, "diff");
    const d = await runMari(["diff", baseline, out, "--out", diffOut, "--quiet"], { env });
    expect(d.code, d.stderr).toBe(0);

    const files = [
      ...["report.json", "report.md", "report.html", "report.junit.xml"].map((f) => join(out, f)),
      ...["diff.json", "diff.md", "diff.html"].map((f) => join(diffOut, f)),
    ];
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toContain(MARK);
    // The values were there to be scrubbed: the explorer shows the reasoning, the report the rejections.
    expect(readFileSync(join(out, "report.json"), "utf8")).toContain("[redacted]");
    expect(readFileSync(join(out, "report.html"), "utf8")).toContain("the key is [redacted]");
    expect(readFileSync(join(diffOut, "diff.html"), "utf8")).toContain("[redacted]");
  });
});

describe("a run key holding a secret", () => {
  // report.json scrubbed the key and cases.jsonl kept it, so `mari merge` refused the shards
  // ("unknown run or reason") of a run that had exited 0.
  it("is refused when the dump is read, with its line and without echoing it", async () => {
    const slice = firstLines(DOC_SLICE, 10);
    const dump = ["0", "sk-run-SECRET-42"].flatMap((run) =>
      slice.map((l) => JSON.stringify({ case_id: JSON.parse(l).id, run, judgment: "no", evidence_sentence_ids: [] })),
    );
    const slicePath = write(tmp.dir, "runs-slice.jsonl", `${slice.join("\n")}\n`);
    const dumpPath = write(tmp.dir, "runs-dump.jsonl", `${dump.join("\n")}\n`);
    const out = join(tmp.dir, "runs");
    const r = await runMari(["eval", slicePath, "--predictions", dumpPath, "--out", out, "--shard", "0/1", "--quiet", "--progress", "none"], {
      env: { RUN_TOKEN: "sk-run-SECRET-42" },
    });
    expectInputError(r, /runs-dump\.jsonl:11: the run key holds the value of the environment variable RUN_TOKEN; .* rename the run or unset RUN_TOKEN/);
    expect(r.stderr).not.toContain("SECRET");
    expect(existsSync(join(out, "report.json"))).toBe(false);
    // Without the variable the same dump is an ordinary two-run eval.
    const plain = await runMari(["eval", slicePath, "--predictions", dumpPath, "--out", out, "--quiet", "--progress", "none"]);
    expect(plain.code, plain.stderr).toBe(0);
  });
});
