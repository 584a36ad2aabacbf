// Silent loss and security: an output never replaces an input of the same run (by
// device + inode: symlinks and hard links too), and never renames over a device or FIFO: those are
// written in place (what a user naming /dev/stdout or /dev/null wants).
import { cpSync, existsSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { DOC_SLICE, expectInputError, expectNoCrash, firstLines, write } from "./helpers.js";

const tmp = tempDir("mari-outputs-");
afterAll(() => tmp.cleanup());
const slice = write(tmp.dir, "slice.jsonl", `${firstLines(DOC_SLICE, 6).join("\n")}\n`);
const sliceBytes = readFileSync(slice, "utf8");
const q = ["--quiet", "--progress", "none", "--workers", "1"];
const dump = join(tmp.dir, "dump.jsonl");

describe("outputs that are inputs are refused, the input untouched", () => {
  it("setup: a lexical dump", async () => {
    const r = await runMari(["predict", slice, "--judge", "lexical", "--out", dump, "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("--rewards naming the --predictions dump", async () => {
    const before = readFileSync(dump, "utf8");
    expectInputError(
      await runMari(["eval", slice, "--predictions", dump, "--rewards", dump, "--out", join(tmp.dir, "o1"), ...q]),
      /dump\.jsonl: is also an input of this run/,
    );
    expect(readFileSync(dump, "utf8")).toBe(before);
  });

  it("predict --out naming the slice, directly, by symlink and by hard link", async () => {
    symlinkSync(slice, join(tmp.dir, "link.jsonl"));
    linkSync(slice, join(tmp.dir, "hard.jsonl"));
    for (const target of [slice, join(tmp.dir, "link.jsonl"), join(tmp.dir, "hard.jsonl")]) {
      expectInputError(await runMari(["predict", slice, "--judge", "lexical", "--out", target, "--quiet"]), /is also an input of this run/);
    }
    expect(readFileSync(slice, "utf8")).toBe(sliceBytes);
  });

  it("a slice at OUT/cases.jsonl", async () => {
    const out = join(tmp.dir, "o2");
    mkdirSync(out);
    cpSync(slice, join(out, "cases.jsonl"));
    expectInputError(await runMari(["eval", join(out, "cases.jsonl"), "--out", out, ...q]), /cases\.jsonl: is also an input of this run/);
    expect(readFileSync(join(out, "cases.jsonl"), "utf8")).toBe(sliceBytes);
  });
});

describe("devices are written in place, never replaced", () => {
  it("--rewards /dev/null and predict --out /dev/null: exit 0, /dev/null still a device", async () => {
    const r1 = await runMari(["eval", slice, "--predictions", dump, "--rewards", "/dev/null", "--out", join(tmp.dir, "o3"), ...q]);
    expectNoCrash(r1);
    expect(r1.code, r1.stderr).toBe(0);
    const r2 = await runMari(["predict", slice, "--judge", "lexical", "--out", "/dev/null", "--quiet"]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });

  it.skipIf(!existsSync("/dev/full"))("predict --out /dev/full: exit 2 (ENOSPC), /dev/full still a device", async () => {
    expectInputError(await runMari(["predict", slice, "--judge", "lexical", "--out", "/dev/full", "--quiet"]), /\/dev\/full: cannot write .*ENOSPC/);
    expect(statSync("/dev/full").isCharacterDevice()).toBe(true);
  });

  it("an output that is a directory is refused", async () => {
    mkdirSync(join(tmp.dir, "adir"));
    expectInputError(
      await runMari(["eval", slice, "--predictions", dump, "--rewards", join(tmp.dir, "adir"), "--out", join(tmp.dir, "o4"), ...q]),
      /adir: cannot write \(EISDIR/,
    );
  });
});
