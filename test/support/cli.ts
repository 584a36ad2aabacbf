// Runs the real, built CLI in a child process (tests exercise what users run).
import { spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { endWithTest } from "./children.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const MARI_BIN = join(ROOT, "bin/mari.js");
/**
 * Node's arguments for a CLI child: the script alone, as `mari` runs, so that an eval loads from
 * the code-cached script (bin/load-cli.js: a flag would send it to the ES modules).
 */
export const MARI_COMMAND: readonly string[] = [MARI_BIN];
/** The same as a shell command line (for the `mari` scripts the docs' examples run). */
export const MARI_SHELL = [process.execPath, ...MARI_COMMAND].map((arg) => `"${arg}"`).join(" ");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a spawned CLI: this process's plus `extra`. Under `npm run coverage`
 * (scripts/coverage.mjs sets MARI_CHILD_V8_COVERAGE) the child also writes its V8 coverage there.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const coverage = process.env.MARI_CHILD_V8_COVERAGE;
  return { ...process.env, ...(coverage ? { NODE_V8_COVERAGE: coverage } : {}), ...extra };
}

/** `addressSpaceKb`: run under `ulimit -v` (through sh), as a machine with an address-space limit would. */
export function runMari(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; addressSpaceKb?: number } = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const limit = options.addressSpaceKb;
    const [command, argv] =
      limit === undefined
        ? [process.execPath, [...MARI_COMMAND, ...args]]
        : ["sh", ["-c", `ulimit -v ${limit} && exec "$0" "$@"`, process.execPath, ...MARI_COMMAND, ...args]];
    const child = endWithTest(
      spawn(command, argv, {
        cwd: options.cwd ?? ROOT,
        env: childEnv({ NO_COLOR: "1", ...options.env }),
        stdio: ["pipe", "pipe", "pipe"],
      }),
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    // A child that exits before reading its input (a refused argument) closes the pipe: writing to
    // it then fails with EPIPE, which is not the test's outcome — the exit code and output are.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/** A fresh temporary directory (under `parent`), removed by the returned cleanup function. */
export function tempDir(prefix = "mari-test-", parent = tmpdir()): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(parent, prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A tmpfs directory where the system has a writable one, else the temporary directory: reading the
 * holes of a big sparse file there costs no zero-filled page cache (1.4 s of system time less per
 * 256 MiB on ext4).
 */
export function memoryTempParent(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}
