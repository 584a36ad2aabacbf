// A served log has one writer and holds only answered items. A second `mari serve` on the same
// --log (or on a link to it) refuses to start, exit 2, naming the first; a lock left by a killed
// server is taken over. When the disk fills in the middle of a request's lines (an injected fault:
// the write takes half, then ENOSPC), the request is answered 503 and none of its lines stay in the
// log. Real CLI children on 127.0.0.1.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { preloadFault } from "../support/fault-preload.js";
import { tempDir } from "../support/cli.js";
import { CONTRADOC_160, postJson, serveRefusal, startServe, type ServeProcess } from "./support.js";

const ANSWER = "<think>\nSee [1].\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>";
const CASE = "3489738220_3";

function items(n: number): string {
  return JSON.stringify({ items: Array.from({ length: n }, (_, i) => ({ case_id: CASE, sample: i, completion: ANSWER })) });
}

/** Starts servers and, whatever the test's outcome, ends those still running. */
function servers(): { start: (args: string[], env?: NodeJS.ProcessEnv) => Promise<ServeProcess>; endAll: () => Promise<void> } {
  const started: ServeProcess[] = [];
  return {
    start: async (args, env) => {
      const s = await startServe(args, env);
      started.push(s);
      return s;
    },
    endAll: async () => {
      for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop("SIGKILL");
    },
  };
}

function logLines(path: string): any[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe("one server per --log", () => {
  it("a second server on the same log, or on a link to it, exits 2 naming the first; the first keeps serving", async () => {
    const work = tempDir("mari-log-lock-");
    const running = servers();
    try {
      const first = await running.start([CONTRADOC_160, "--log", join(work.dir, "served.jsonl")]);
      symlinkSync(join(work.dir, "served.jsonl"), join(work.dir, "link.jsonl"));
      for (const log of ["served.jsonl", "link.jsonl"]) {
        const second = await serveRefusal([CONTRADOC_160, "--log", join(work.dir, log)]);
        expect(second.code).toBe(2);
        expect(second.stderr).toContain(`another mari serve (pid ${first.child.pid}) is writing this log`);
        expect(second.stderr).not.toMatch(/at .*\.js:\d+/);
      }
      expect((await postJson(`${first.url}/v1/rewards`, items(2))).status).toBe(200);
      expect(logLines(join(work.dir, "served.jsonl"))).toHaveLength(2);
      expect(await first.stop()).toBe(0);
    } finally {
      await running.endAll();
      work.cleanup();
    }
  });

  it("the lock goes when the server stops; one left by a killed server is taken over", async () => {
    const work = tempDir("mari-log-stale-");
    const log = join(work.dir, "served.jsonl");
    const running = servers();
    try {
      // Each is stopped as soon as it has said where it listens (its signal handlers are in by then).
      const stopped = await running.start([CONTRADOC_160, "--log", log]);
      expect(existsSync(`${log}.lock`)).toBe(true);
      expect(await stopped.stop()).toBe(0);
      expect(existsSync(`${log}.lock`)).toBe(false);
      const killed = await running.start([CONTRADOC_160, "--log", log]);
      expect(await killed.stop("SIGKILL")).toBe(null);
      expect(readFileSync(`${log}.lock`, "utf8").trim()).toBe(String(killed.child.pid));
      const next = await running.start([CONTRADOC_160, "--log", log]);
      expect((await postJson(`${next.url}/v1/rewards`, items(1))).status).toBe(200);
      expect(readFileSync(`${log}.lock`, "utf8").trim()).toBe(String(next.child.pid));
      expect(await next.stop()).toBe(0);
    } finally {
      await running.endAll();
      work.cleanup();
    }
  });

  it("a log that is not a regular file (/dev/null) takes no lock: two servers may discard their lines", async () => {
    const running = servers();
    try {
      await running.start([CONTRADOC_160, "--log", "/dev/null"]);
      const b = await running.start([CONTRADOC_160, "--log", "/dev/null"]);
      expect(await b.stop()).toBe(0);
    } finally {
      await running.endAll();
    }
  });
});

describe("the log and the answers agree", () => {
  it("a request whose lines meet a full disk is answered 503 and leaves none of them in the log", async () => {
    const work = tempDir("mari-log-full-");
    const log = join(work.dir, "served.jsonl");
    writeFileSync(log, "");
    // The second write to the log (the second request's lines) fills the disk half-way.
    const running = servers();
    const server = await running.start([CONTRADOC_160, "--log", log], {
      NODE_OPTIONS: preloadFault("log-disk-full.mjs"),
      MARI_FAULT_FULL_LOG: log,
      MARI_FAULT_FULL_AT_WRITE: "2",
    });
    try {
      const ok = await postJson(`${server.url}/v1/rewards`, items(3), { "x-request-id": "answered" });
      expect(ok.status).toBe(200);
      const full = await postJson(`${server.url}/v1/rewards`, items(40), { "x-request-id": "refused" });
      expect(full.status).toBe(503);
      expect(full.json.error.code).toBe("log_unwritable");
      const later = await postJson(`${server.url}/v1/rewards`, items(1), { "x-request-id": "later" });
      expect(later.status).toBe(503);
      expect(await server.stop()).toBe(2);
      expect(server.stderr()).toMatch(/cannot write --log .*ENOSPC/);
      // Exactly the answered request's lines, whole: nothing of the refused ones.
      const text = readFileSync(log, "utf8");
      expect(text.endsWith("\n")).toBe(true);
      const lines = logLines(log);
      expect(lines.map((l) => l.request)).toEqual(["answered", "answered", "answered"]);
      expect(lines.map((l) => l.run)).toEqual(["0", "1", "2"]);
    } finally {
      await running.endAll();
      work.cleanup();
    }
  });
});
