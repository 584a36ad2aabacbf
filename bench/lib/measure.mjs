// Shared by the benchmark scripts: numeric command-line flags, and one way to measure a child
// process (wall time, CPU seconds, peak RSS, load average) so every bench reports the same fields.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Every mari a bench starts keeps its compiled-slice cache here (children inherit the environment),
 * never in the user's cache: a bench empties it for a cold run and leaves it for a warm one.
 */
export const BENCH_CACHE_HOME = resolve(ROOT, "bench/out/cache-home");
process.env.XDG_CACHE_HOME = BENCH_CACHE_HOME;
const TIME = "/usr/bin/time";

/** Which timer `measureChild` uses on this machine (recorded in the results). */
export const TIMER = existsSync(TIME) ? "/usr/bin/time -v" : "process.resourceUsage wrapper";

/** `--name N` from the command line, as a number, or the fallback. */
export function flag(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

// Without /usr/bin/time, a small parent runs the command and prints the same three lines.
const WRAPPER = `
import { spawnSync } from "node:child_process";
const r = spawnSync(process.argv[1], process.argv.slice(2), { stdio: ["ignore", "ignore", "inherit"] });
const u = process.resourceUsage();
const c = r.status === 0 ? 0 : r.status ?? 3;
console.error("User time (seconds): " + (u.userCPUTime / 1e6));
console.error("System time (seconds): " + (u.systemCPUTime / 1e6));
console.error("Maximum resident set size (kbytes): " + u.maxRSS);
process.exit(c);
`;

const MAIN_THREAD_CPU = resolve(import.meta.dirname, "main-thread-cpu.mjs");

/**
 * Runs `node ...args` from the repository root; throws when it fails. The child also reports its
 * main thread's CPU seconds (main-thread-cpu.mjs), so its CPU splits into the main thread's and
 * the other threads'.
 */
export function measureChild(args) {
  return measureCommand(process.execPath, ["--import", MAIN_THREAD_CPU, ...args]);
}

/**
 * Runs `program ...args` (e.g. python3) from the repository root; throws when it fails. With
 * `{ stdout: true }` the result also holds what the program printed (for a small output).
 */
export async function measureCommand(program, args, { stdout: keepStdout = false } = {}) {
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : process.execPath;
  const argv = useTime ? ["-v", program, ...args] : ["--input-type=module", "-e", WRAPPER, program, ...args];
  const started = process.hrtime.bigint();
  const child = spawn(command, argv, { cwd: ROOT, stdio: ["ignore", keepStdout ? "pipe" : "ignore", "pipe"] });
  let stdout = "";
  if (keepStdout) child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  const [code] = await once(child, "close");
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${stderr.slice(-2000)}`);
  const field = (label) => {
    const m = new RegExp(`${label}: ([\\d.]+)`).exec(stderr);
    return m ? Number(m[1]) : null;
  };
  const user = field("User time \\(seconds\\)");
  const sys = field("System time \\(seconds\\)");
  const rss = field("Maximum resident set size \\(kbytes\\)");
  const mainThread = field("Main thread CPU \\(seconds\\)");
  const cpu = user !== null && sys !== null ? user + sys : null;
  return {
    wall_seconds: wall,
    cpu_seconds: cpu,
    ...(mainThread !== null && cpu !== null ? { main_thread_cpu_seconds: mainThread, other_threads_cpu_seconds: Number((cpu - mainThread).toFixed(2)) } : {}),
    peak_rss_mb: rss === null ? null : rss / 1024,
    load_average_1m: loadavg()[0],
    ...(keepStdout ? { stdout } : {}),
  };
}

/** The best of repeated measurements (least wall and CPU time, highest peak RSS), with every sample. */
export function best(samples) {
  return {
    wall_seconds: Math.min(...samples.map((s) => s.wall_seconds)),
    cpu_seconds: Math.min(...samples.map((s) => s.cpu_seconds ?? Infinity)),
    load_average_1m: samples.map((s) => Number(s.load_average_1m.toFixed(2))),
    peak_rss_mb: Math.max(...samples.map((s) => s.peak_rss_mb ?? 0)),
    samples: samples.map((s) => Number(s.wall_seconds.toFixed(3))),
  };
}

/** Medians of repeated measurements (wall, CPU, peak RSS), with the largest peak RSS seen. */
export function median(samples) {
  const mid = (values) => {
    const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
    if (sorted.length === 0) return null;
    const h = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
  };
  return {
    wall_seconds: mid(samples.map((s) => s.wall_seconds)),
    cpu_seconds: mid(samples.map((s) => s.cpu_seconds)),
    ...(samples.every((s) => s.main_thread_cpu_seconds !== undefined)
      ? {
          main_thread_cpu_seconds: mid(samples.map((s) => s.main_thread_cpu_seconds)),
          other_threads_cpu_seconds: mid(samples.map((s) => s.other_threads_cpu_seconds)),
        }
      : {}),
    peak_rss_mb: mid(samples.map((s) => s.peak_rss_mb)),
    max_peak_rss_mb: Math.max(...samples.map((s) => s.peak_rss_mb ?? 0)),
    load_average_1m: samples.map((s) => Number(s.load_average_1m.toFixed(2))),
  };
}

/** Debian's Chromium (or $MARI_CHROMIUM) for the page benches; without one the bench says so and exits 2. */
export function chromiumOrExit(bench) {
  const found = [process.env.MARI_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && existsSync(p));
  if (!found) {
    console.error(`${bench}: no Chromium (apt-get install chromium, or set MARI_CHROMIUM)`);
    process.exit(2);
  }
  return found;
}
