// Provenance for report.json (docs/reports.md, "Output files", docs/reports.md, "Provenance"): which tool, code, runtime and config
// produced a report, so two reports can be told apart or shown to be comparable.
import { spawnSync } from "node:child_process";
import { canonicalJson, sha256Text } from "../io/hashing.js";
import { MARI_VERSION } from "../version.js";
import { redactConfig } from "./redact.js";
import type { SystemInfo } from "./types.js";

/**
 * git's output, or null when it fails. Run synchronously: the pipes and streams of an asynchronous
 * child cost about 3 ms of CPU to set up (the first use of Node's socket and stream code), more
 * than git's own run in a checkout of thousands of files, which the calling thread now waits for.
 */
function git(args: string[], cwd: string): string | null {
  try {
    const result = spawnSync("git", args, { cwd, timeout: 5000, windowsHide: true, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return result.error || result.status !== 0 ? null : result.stdout;
  } catch {
    return null;
  }
}

/**
 * The git commit of the checkout holding `cwd` (the user's project: slice, config and dump live
 * there), with a dirty flag for uncommitted changes to tracked files. Null when git is missing or
 * `cwd` is not in a checkout; never throws.
 */
export interface GitRevision {
  commit: string | null;
  dirty: boolean | null;
}

/** The line of `git status --porcelain=v2 --branch` that names the checked-out commit. */
const BRANCH_OID = "# branch.oid ";

export function gitRevision(cwd: string = process.cwd()): GitRevision {
  // One git process where two did the job (rev-parse, then status): the branch header of the
  // porcelain v2 status carries the commit, and each line after it a changed tracked file.
  const status = git(["status", "--porcelain=v2", "--branch", "--untracked-files=no"], cwd);
  if (status === null) {
    // No work tree (a bare repository, the .git folder itself): the commit still reads, its dirty flag does not.
    const head = git(["rev-parse", "--verify", "HEAD"], cwd);
    const commit = head?.trim() || null;
    return { commit, dirty: null };
  }
  let commit: string | null = null;
  let dirty = false;
  for (const line of status.split("\n")) {
    if (line.startsWith(BRANCH_OID)) {
      const oid = line.slice(BRANCH_OID.length).trim();
      // "(initial)" before the first commit.
      if (/^[0-9a-f]{40,64}$/.test(oid)) commit = oid;
    } else if (line !== "" && !line.startsWith("#")) {
      dirty = true;
    }
  }
  return commit === null ? { commit: null, dirty: null } : { commit, dirty };
}

export async function collectSystemInfo(opts: {
  config: Record<string, unknown>;
  seed: number;
  workers: number;
  judge?: string | null;
  judgeNote?: string;
  cwd?: string;
  /**
   * `gitRevision()` taken earlier by the caller: spawning git costs the calling thread time in
   * proportion to the process's memory (≈ 18 ms late in a GRPO-sized eval), so a run starts it
   * while it is small.
   */
  git?: GitRevision;
}): Promise<SystemInfo> {
  const { commit, dirty } = opts.git ?? gitRevision(opts.cwd);
  const config = redactConfig(opts.config);
  const info: SystemInfo = {
    mari_version: MARI_VERSION,
    git_commit: commit,
    git_dirty: dirty,
    node: process.version,
    icu: process.versions.icu ?? null,
    platform: `${process.platform}-${process.arch}`,
    config,
    config_hash: sha256Text(canonicalJson(config)),
    seed: opts.seed,
    workers: opts.workers,
    judge: opts.judge ?? null,
  };
  if (opts.judgeNote !== undefined) info.judge_note = opts.judgeNote;
  return info;
}
