// Fourth round, arguments (findings 8, 14 and 20's first half): a trend glob whose bracket range is
// reversed, an output on a kernel pseudo file system, and a --special-token the completion layout
// uses are refused up front with an input error (exit 2), never exit 3, a hang or a silent change.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, dumpLine, expectInputError, firstLines } from "./helpers.js";

const tmp = tempDir("mari-refused-args-");
afterAll(() => tmp.cleanup());

describe("refused arguments", () => {
  it("finding 8: mari trend 'r/ckpt-[z-a]*' is an input error, not an invalid RegExp (exit 3)", async () => {
    mkdirSync(join(tmp.dir, "r", "ckpt-1"), { recursive: true });
    const r = await runMari(["trend", "r/ckpt-[z-a]*", "--out", join(tmp.dir, "t8")], { cwd: tmp.dir });
    expectInputError(r, /trend: the glob segment 'ckpt-\[z-a\]\*' is not a valid pattern/);
  });

  it.each(["/proc/x", "/proc/mari-out/deeper", "/sys/mari-out"])("finding 14: --out %s is refused before anything is created (it hung)", async (out) => {
    const slice = join(tmp.dir, "slice.jsonl");
    const lines = firstLines(DOC_SLICE, 3);
    writeFileSync(slice, `${lines.join("\n")}\n`);
    const dump = join(tmp.dir, "dump.jsonl");
    writeFileSync(dump, `${lines.map((l) => dumpLine(JSON.parse(l))).join("\n")}\n`);
    // A hang would end in the test's timeout; the refusal is immediate.
    const r = await runMari(["eval", slice, "--predictions", dump, "--out", out, "--quiet"]);
    expectInputError(r, new RegExp(`${out}: is on the (proc|sysfs) pseudo file system`));
  });

  it.each(["</answer>", "answer>", ">", "<think>", "x</think>"])("finding 20: --special-token %s, which the layout uses, is refused", async (token) => {
    const r = await runMari(["eval", DOC_SLICE, "--predictions", join(tmp.dir, "none.jsonl"), "--special-token", token, "--out", join(tmp.dir, "t20")]);
    expectInputError(r, /--special-token .*: the completion layout uses it/);
  });
});
