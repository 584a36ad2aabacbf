import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { redactConfig, redactSecrets, secretEnvValues } from "../../src/report/redact.js";
import { canonicalJson, sha256File } from "../../src/io/hashing.js";
import { collectSystemInfo, gitRevision } from "../../src/report/system.js";
import { MARI_VERSION } from "../../src/version.js";
import { ROOT, tempDir } from "../support/cli.js";
import { SYNC_CHILD } from "../support/children.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

describe("provenance", () => {
  it("hashes a file by streaming it", async () => {
    const path = join(dir, "big.bin");
    const data = Buffer.alloc(3 * 1024 * 1024 + 7, 0x61);
    writeFileSync(path, data);
    expect(await sha256File(path)).toBe(createHash("sha256").update(data).digest("hex"));
    const empty = join(dir, "empty");
    writeFileSync(empty, "");
    expect(await sha256File(empty)).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    await expect(sha256File(join(dir, "missing"))).rejects.toThrow();
  });

  it("writes canonical JSON with sorted keys at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined }, e: NaN })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1,"e":null}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it("collects versions, config and its hash; git fields are null outside a checkout", async () => {
    const info = await collectSystemInfo({
      config: { seed: 1, judge: { api_key: "sk-live-123456789", api_key_env: "OPENAI_API_KEY" } },
      seed: 1,
      workers: 2,
      judge: "lexical",
      judgeNote: "baseline",
      cwd: dir,
    });
    expect(info).toMatchObject({
      mari_version: MARI_VERSION,
      git_commit: null,
      git_dirty: null,
      node: process.version,
      icu: process.versions.icu,
      seed: 1,
      workers: 2,
      judge: "lexical",
      judge_note: "baseline",
    });
    expect(info.config).toEqual({ seed: 1, judge: { api_key: "[redacted]", api_key_env: "OPENAI_API_KEY" } });
    // The hash of the redacted config written with sorted keys and no spaces.
    const canonical = '{"judge":{"api_key":"[redacted]","api_key_env":"OPENAI_API_KEY"},"seed":1}';
    expect(info.config_hash).toBe(createHash("sha256").update(canonical).digest("hex"));
    const reordered = await collectSystemInfo({
      config: { judge: { api_key_env: "OPENAI_API_KEY", api_key: "other" }, seed: 1 },
      seed: 1,
      workers: 1,
      cwd: dir,
    });
    expect(reordered.config_hash).toBe(info.config_hash);
    expect(reordered.judge).toBeNull();
    expect(reordered).not.toHaveProperty("judge_note");
  });

  it("records the commit of a git checkout", async (ctx) => {
    if (!existsSync(join(ROOT, ".git"))) ctx.skip(`${ROOT} has no .git (the tree was exported without it)`);
    const git = spawnSync("git", ["--version"], SYNC_CHILD);
    if (git.status !== 0) ctx.skip(`no git command (${git.error?.message ?? `exit ${git.status}`})`);
    const info = await collectSystemInfo({ config: {}, seed: 0, workers: 1, cwd: ROOT });
    expect(info.git_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(typeof info.git_dirty).toBe("boolean");
  });

  it("reads a checkout's commit and dirty flag: before the first commit, clean, changed, untracked only, bare", async (ctx) => {
    const probe = spawnSync("git", ["--version"], SYNC_CHILD);
    if (probe.status !== 0) ctx.skip(`no git command (${probe.error?.message ?? `exit ${probe.status}`})`);
    const repo = join(dir, "repo");
    const run = (...args: string[]): string => {
      const r = spawnSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { ...SYNC_CHILD, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.trim();
    };
    mkdirSync(repo);
    run("init", "-q");
    expect(gitRevision(repo)).toEqual({ commit: null, dirty: null });
    writeFileSync(join(repo, "a.txt"), "one\n");
    run("add", "a.txt");
    run("commit", "-q", "-m", "first");
    const head = run("rev-parse", "HEAD");
    expect(gitRevision(repo)).toEqual({ commit: head, dirty: false });
    writeFileSync(join(repo, "b.txt"), "untracked\n");
    expect(gitRevision(repo)).toEqual({ commit: head, dirty: false });
    writeFileSync(join(repo, "a.txt"), "two\n");
    expect(gitRevision(repo)).toEqual({ commit: head, dirty: true });
    run("add", "a.txt");
    expect(gitRevision(repo)).toEqual({ commit: head, dirty: true });
    // A bare repository has no work tree to be dirty: its commit, no flag.
    const bare = join(dir, "bare.git");
    expect(spawnSync("git", ["clone", "-q", "--bare", repo, bare], SYNC_CHILD).status).toBe(0);
    expect(await gitRevision(bare)).toEqual({ commit: head, dirty: null });
  });
});

describe("redaction", () => {
  it("blanks credential-like config members, keeps __proto__ as data", () => {
    const config = JSON.parse('{"token":"abc","nested":[{"password":"p"}],"__proto__":{"x":1},"keys":2}');
    const safe = redactConfig(config);
    expect(safe).toEqual(JSON.parse('{"token":"[redacted]","nested":[{"password":"[redacted]"}],"__proto__":{"x":1},"keys":2}'));
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype);
  });

  it("scrubs the values of secret environment variables from text", () => {
    const env = { OPENAI_API_KEY: "sk-abcdefghijkl", GITHUB_TOKEN: "ghp_0123456789", HOME: "/home/someone", SHORT_KEY: "1" };
    const secrets = secretEnvValues(env);
    expect(secrets).toEqual(["sk-abcdefghijkl", "ghp_0123456789"]);
    expect(redactSecrets("key sk-abcdefghijkl and ghp_0123456789 at /home/someone", secrets)).toBe("key [redacted] and [redacted] at /home/someone");
    const odd = secretEnvValues({ MY_SECRET: 'a"b&c<d>e' });
    expect(redactSecrets(JSON.stringify({ m: 'a"b&c<d>e' }), odd)).toBe('{"m":"[redacted]"}');
    expect(redactSecrets("<td>a&quot;b&amp;c&lt;d&gt;e</td>", odd)).toBe("<td>[redacted]</td>");
  });
});
