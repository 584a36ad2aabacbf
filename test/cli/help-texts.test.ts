// Every command's --help ends the same way (examples, then every exit code), spells the shared flags
// the same way, and a usage error prints one line naming the problem, not the whole help.
import { describe, expect, it } from "vitest";
import { runMari } from "../support/cli.js";

const COMMANDS = ["eval", "predict", "merge", "diff", "serve", "classify", "sweep", "evidence"];

describe("help texts", () => {
  for (const command of COMMANDS) {
    it(`mari ${command} --help: examples and exit codes`, async () => {
      const r = await runMari([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nExamples:\n {2}(\S+=\S+ )?mari /);
      expect(r.stdout).toMatch(/\nExit codes: 0 /);
      expect(r.stdout).toMatch(/3 internal error\.\n$/);
      // The gate flag is spelt alike everywhere; defaults are written "(default X)" in the text.
      if (r.stdout.includes("--gate")) expect(r.stdout).toContain("--gate <condition>");
      expect(r.stdout).not.toMatch(/\(default: /);
    });
  }

  it("eval --help names the files it writes as they are called", async () => {
    const r = await runMari(["eval", "--help"]);
    expect(r.stdout).toContain("report.junit.xml");
    expect(r.stdout).not.toMatch(/[^.]junit\.xml/);
  });

  it("a missing mandatory flag is one line naming it, then a pointer to --help", async () => {
    const r = await runMari(["predict", "datasets/contradoc/contradoc-160.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toEqual(["error: required option '--judge <name>' not specified", "(mari COMMAND --help lists every flag)"]);
  });
});
