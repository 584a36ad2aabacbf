// Starts the real `mari serve` CLI in a child process on 127.0.0.1 (a free port chosen by the OS,
// read from the start line), and small HTTP helpers for the server tests.
import { spawn, type ChildProcess } from "node:child_process";
import { childEnv, ROOT, MARI_COMMAND } from "../support/cli.js";
import type { DocumentSlice } from "../../src/io/slice.js";
import { startRewardsServer, type RewardsServer, type RewardsServerOptions } from "../../src/server/rewards-server.js";
import { DEFAULT_WEIGHTS } from "../../src/server/weights.js";
import { endWithTest } from "../support/children.js";

export const CONTRADOC_160 = "datasets/contradoc/contradoc-160.jsonl";

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Resolves when stderr has contained `text`. */
  waitFor(text: string): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns `mari serve ARGS --port 0`; rejects with its stderr when it exits before listening. The
 * child ends with the test that started it (or with the file, started in a beforeAll), passed or not.
 */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = endWithTest(
    spawn(process.execPath, [...MARI_COMMAND, "serve", ...args, "--port", "0"], {
      cwd: ROOT,
      env: childEnv({ NO_COLOR: "1", ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let stderr = "";
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (stderr.includes(waiters[i]!.text)) waiters.splice(i, 1)[0]!.resolve();
      }
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) {
        resolve({
          url: m[1]!,
          child,
          stderr: () => stderr,
          exited,
          waitFor: (text) => new Promise<void>((ok) => (stderr.includes(text) ? ok() : waiters.push({ text, resolve: ok }))),
          stop: (signal = "SIGTERM") => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`mari serve exited (${code}) before listening:\n${stderr}`)));
  });
}

/** Runs `mari serve ARGS` that is expected to refuse to start: its exit code and stderr. */
export function serveRefusal(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  return startServe(args, env).then(
    async (s) => {
      await s.stop();
      throw new Error(`mari serve started on ${s.url} but should have refused`);
    },
    async (err: Error) => {
      const m = /exited \((\S+)\) before listening:\n([\s\S]*)$/.exec(err.message);
      if (!m) throw err;
      return { code: m[1] === "null" ? null : Number(m[1]), stderr: m[2]! };
    },
  );
}

/** GET a JSON body (e.g. /health), parsed without a declared shape: the test asserts the fields. */
export async function getJson(url: string): Promise<any> {
  return (await fetch(url)).json();
}

export async function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
  return { status: res.status, json: await res.json() };
}

/** An in-process `mari serve` on 127.0.0.1 (a free port) with the default weights and no token; `options` override. */
export function startTestServer(slice: DocumentSlice, options: Partial<RewardsServerOptions> = {}): Promise<RewardsServer> {
  return startRewardsServer({
    slice,
    host: "127.0.0.1",
    port: 0,
    weights: { ...DEFAULT_WEIGHTS },
    maxBodyBytes: 1 << 20,
    maxItems: 100,
    score: { lenientIds: false },
    ...options,
  });
}
