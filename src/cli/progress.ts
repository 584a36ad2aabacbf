// Progress on stderr (docs/reports.md, "Progress and summary"): a cli-progress bar on a terminal,
// plain lines elsewhere (CI logs; cli-progress prints nothing off a TTY): one line per phase, when it
// ends, and one on the way only for a phase still running after PLAIN_INTERVAL_MS; nothing with
// `none`. Never on stdout, which carries the summary (and, for some commands, data).
import { createRequire } from "node:module";
import type * as CliProgress from "cli-progress";
import { InputError } from "../io/errors.js";
import { PROGRESS_MODES } from "../core/options/output.js";

export type ProgressMode = (typeof PROGRESS_MODES)[number];
export { PROGRESS_MODES };

export interface Progress {
  tick(n?: number): void;
  /** `completed` false: the phase ended early, and the display says "stopped", never "done". */
  done(completed?: boolean): void;
  /** Prints one diagnostic line without tearing the display (a bar is cleared, then redrawn below it). */
  log(line: string): void;
}

/** Plain mode: a phase prints when it ends, and on the way at most this often (a long CI step shows it is alive). */
const PLAIN_INTERVAL_MS = 30_000;

export interface ProgressOptions {
  mode: ProgressMode;
  label: string;
  total?: number;
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Clock, for tests of the periodic lines. */
  now?: () => number;
}

/** Seconds as m:ss (h:mm:ss from an hour). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** Items per second so far and the time left at that rate ("?" before there is a rate). */
function pace(count: number, total: number | undefined, elapsedMs: number): { rate: string; left: string } {
  const perSecond = elapsedMs > 0 ? (count * 1000) / elapsedMs : 0;
  const rate = perSecond >= 100 ? Math.round(perSecond).toString() : perSecond.toFixed(1);
  const left = total === undefined || perSecond <= 0 ? "?" : clock((total - count) / perSecond);
  return { rate, left };
}

function plainProgress(label: string, total: number | undefined, stream: NodeJS.WritableStream, now: () => number): Progress {
  let count = 0;
  let lastPrintedAt = now();
  let finished = false;
  const start = lastPrintedAt;
  const line = (): string => {
    const seconds = ((now() - start) / 1000).toFixed(1);
    if (total !== undefined && total > 0) return `${label}: ${count}/${total} (${Math.floor((count / total) * 100)}%) ${seconds}s\n`;
    return `${label}: ${count} ${seconds}s\n`;
  };
  // A line on the way: with the rate and, when the total is known, the time left.
  const progressLine = (): string => {
    const { rate, left } = pace(count, total, now() - start);
    return `${line().trimEnd()}, ${rate}/s${total !== undefined && total > 0 ? `, eta ${left}` : ""}\n`;
  };
  return {
    tick(n = 1) {
      if (finished) return;
      count += n;
      const t = now();
      if (t - lastPrintedAt >= PLAIN_INTERVAL_MS) {
        stream.write(progressLine());
        lastPrintedAt = t;
      }
    },
    done(completed = true) {
      if (finished) return;
      finished = true;
      stream.write(`${line().trimEnd()} ${completed ? "done" : "stopped"}\n`);
    },
    log(text) {
      stream.write(`${text}\n`);
    },
  };
}

/** DECAWM: the terminal's automatic line wrapping on and off. */
const WRAP_ON = "\u001b[?7h";
const WRAP_OFF = "\u001b[?7l";

function barProgress(label: string, total: number | undefined, stream: NodeJS.WritableStream): Progress {
  // Loaded on first use (it is CommonJS, so synchronously): most runs, and `mari --help`, never draw a bar.
  const cliProgress = createRequire(import.meta.url)("cli-progress") as typeof CliProgress;
  const format = total !== undefined ? `${label} [{bar}] {percentage}% {value}/{total} {speed}/s eta {left}` : `${label} {value} {speed}/s`;
  // cli-progress's MultiBar, with one bar: unlike its SingleBar it never saves and restores the
  // cursor (a restore after lines were written under the bar put later output over old lines), and
  // its log() writes a line above the bar and redraws the bar under it.
  const display = new cliProgress.MultiBar(
    { format, stream: stream as NodeJS.WritableStream & NodeJS.WriteStream, hideCursor: true, clearOnComplete: false, etaBuffer: 50, fps: 10 },
    cliProgress.Presets.shades_classic,
  );
  const start = Date.now();
  let count = 0;
  const bar = display.create(total ?? 0, 0, { speed: "0", left: "?" });
  let finished = false;
  return {
    tick(n = 1) {
      if (finished) return;
      count += n;
      const { rate, left } = pace(count, total, Date.now() - start);
      bar.increment(n, { speed: rate, left });
    },
    done(completed = true) {
      if (finished) return;
      finished = true;
      display.stop();
      if (!completed) stream.write(`${label}: stopped\n`);
    },
    log(text) {
      if (finished) {
        stream.write(`${text}\n`);
        return;
      }
      if (!(stream as { isTTY?: boolean }).isTTY) {
        stream.write(`${text}\n`);
        return;
      }
      // The bar is drawn with the terminal's line wrapping off (a wrapped bar could not be redrawn
      // in place); a message is written with it on, so a long one wraps instead of being cut.
      display.log(`${WRAP_ON}${text}\n${WRAP_OFF}`);
      display.update();
    },
  };
}

const silent: Progress = { tick() {}, done() {}, log: (line) => void process.stderr.write(`${line}\n`) };

/** `auto` is a bar on a terminal and plain lines otherwise. Writes to `stream` (default stderr) only. */
export function createProgress(opts: ProgressOptions): Progress {
  const stream = opts.stream ?? process.stderr;
  const mode = opts.mode === "auto" ? (stream.isTTY ? "bar" : "plain") : opts.mode;
  switch (mode) {
    case "none":
      return silent;
    case "bar":
      return barProgress(opts.label, opts.total, stream);
    case "plain":
      return plainProgress(opts.label, opts.total, stream, opts.now ?? Date.now);
  }
}

/**
 * The display a command shows: `--progress` (or the config's `progress`) when given; otherwise
 * none under `--quiet` (the same meaning in every command: no summary, no notes, no progress
 * unless asked for) and auto elsewhere.
 */
export function progressModeFor(text: string | undefined, quiet: boolean): ProgressMode {
  return text === undefined && quiet ? "none" : parseProgressMode(text);
}

/** Validates `--progress`; undefined means auto. */
export function parseProgressMode(text: string | undefined): ProgressMode {
  if (text === undefined) return "auto";
  if ((PROGRESS_MODES as readonly string[]).includes(text)) return text as ProgressMode;
  throw new InputError(`--progress: unknown mode "${text}" (choose from ${PROGRESS_MODES.join(", ")})`);
}
