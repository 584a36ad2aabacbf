// Shared by the benchmark scripts: numeric command-line flags, and one way to measure a child
// process (wall time, CPU seconds, peak RSS, load average) so every bench reports the same fields.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Every mari a bench starts keeps its compiled-slice cache here (children inherit the environment),
 * never in the user's cache: a bench empties it for a cold run and leaves it for a warm one.
 */
export const BENCH_CACHE_HOME = resolve(ROOT, "bench/out/cache-home");
process.env.XDG_CACHE_HOME = BENCH_CACHE_HOME;

/**
 * Whether the environment the bench was started in named extra CA certificates. Node reads and
 * parses them as every process starts, whatever it then does: on the machine of the committed
 * figures `node -e ""` took 60 ms of CPU with them against 18 ms without (medians of 20). That is a
 * fixed cost on both sides of every ratio to a floor, which makes the ratio look smaller, and no
 * command a bench runs opens a TLS connection, so the children run without them.
 */
export const EXTRA_CA_CERTS_REMOVED = process.env.NODE_EXTRA_CA_CERTS !== undefined;
delete process.env.NODE_EXTRA_CA_CERTS;

/** The machine a bench ran on, as its results record it. */
export function machineFacts() {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    total_memory_gb: Number((totalmem() / 2 ** 30).toFixed(1)),
    node: process.version,
    node_extra_ca_certs_removed: EXTRA_CA_CERTS_REMOVED,
  };
}
/**
 * Measures a child from outside (bench/lib/measure-child.py: its wall time, the kernel's accounting
 * of it once exited, and its main thread's CPU from /proc before it is reaped), so the child runs
 * exactly as a user runs it. A preload reading /proc from inside would make mari refuse its code
 * cache, which is made for a node started without flags, and load its ES modules instead.
 */
const MEASURE_CHILD = resolve(import.meta.dirname, "measure-child.py");

/** How `measureChild` measures (recorded in the results). */
export const TIMER = "bench/lib/measure-child.py (wait4, main thread from /proc)";

/** `--name N` from the command line, as a number, or the fallback. */
export function flag(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The command that runs `program ...args` under the measurer: [file, args] for spawn. */
export function measuredCommand(program, args) {
  return ["python3", [MEASURE_CHILD, program, ...args]];
}

/** What the measurer reported on stderr (its lines come last, after whatever the command wrote there); null for a figure it did not give. */
export function measuredFields(stderr) {
  const field = (label) => {
    const all = [...stderr.matchAll(new RegExp(`^${label}: ([\\d.]+)$`, "gm"))];
    return all.length > 0 ? Number(all.at(-1)[1]) : null;
  };
  return {
    wall: field("Elapsed \\(seconds\\)"),
    user: field("User time \\(seconds\\)"),
    sys: field("System time \\(seconds\\)"),
    rssKb: field("Maximum resident set size \\(kbytes\\)"),
    mainThread: field("Main thread CPU \\(seconds\\)"),
  };
}

/**
 * Runs `node ...args` from the repository root; throws when it fails. Its CPU splits into the main
 * thread's and the other threads' (V8's compilers and GC helpers, the libuv pool, workers).
 */
export function measureChild(args) {
  return measureCommand(process.execPath, args);
}

/**
 * Runs `program ...args` (e.g. python3) from the repository root; throws when it fails. With
 * `{ stdout: true }` the result also holds what the program printed (for a small output).
 */
export async function measureCommand(program, args, { stdout: keepStdout = false } = {}) {
  const [file, argv] = measuredCommand(program, args);
  const child = spawn(file, argv, { cwd: ROOT, stdio: ["ignore", keepStdout ? "pipe" : "ignore", "pipe"] });
  let stdout = "";
  if (keepStdout) child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  const [code] = await once(child, "close");
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${stderr.slice(-2000)}`);
  const { wall, user, sys, rssKb: rss, mainThread } = measuredFields(stderr);
  const cpu = user !== null && sys !== null ? user + sys : null;
  return {
    wall_seconds: wall,
    cpu_seconds: cpu === null ? null : Number(cpu.toFixed(6)),
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

/** The median of some numbers (nulls left out), or null when there are none. */
export function middle(values) {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const h = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}

/** Medians of repeated measurements (wall, CPU, peak RSS), with the largest peak RSS seen. */
export function median(samples) {
  return {
    wall_seconds: middle(samples.map((s) => s.wall_seconds)),
    cpu_seconds: middle(samples.map((s) => s.cpu_seconds)),
    ...(samples.every((s) => s.main_thread_cpu_seconds !== undefined)
      ? {
          main_thread_cpu_seconds: middle(samples.map((s) => s.main_thread_cpu_seconds)),
          other_threads_cpu_seconds: middle(samples.map((s) => s.other_threads_cpu_seconds)),
        }
      : {}),
    peak_rss_mb: middle(samples.map((s) => s.peak_rss_mb)),
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
