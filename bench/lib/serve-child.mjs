// Starts the built `mari serve` in a child process on 127.0.0.1 (a free port, read from its start
// line), for the serve and start-up benchmarks; or any Node script that writes such a line.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { ROOT } from "./measure.mjs";

/** `mari serve SLICE --port 0 ...args`; resolves with its port and a `stop()` once it listens. */
export function startServeChild(slice, args = []) {
  return startListeningChild([join(ROOT, "bin/mari.js"), "serve", slice, "--port", "0", ...args]);
}

/** `node ...args`, a server that writes "listening on http://127.0.0.1:PORT" on stderr once it listens. */
export async function startListeningChild(args) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  const port = await new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      stderr += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.on("close", (code) => reject(new Error(`${args.join(" ")} exited ${code}: ${stderr}`)));
  });
  return {
    port,
    stop: async () => {
      child.kill("SIGTERM");
      await once(child, "close");
    },
  };
}
