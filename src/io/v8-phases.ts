// A phase of a run under V8 settings of its own, switched back when it ends, however it ends (nested
// phases counted). V8's heuristics pay for themselves on a long run, not always on the phase at hand;
// the caller decides when a phase is one of those. A process started with its own choice of a
// setting is left as it is.
import { setFlagsFromString } from "node:v8";

/** One V8 setting a phase switches off. */
interface PhaseSetting {
  /** The flags that switch it off, then back on. */
  readonly off: string;
  readonly on: string;
  /** True when the process was started with its own choice of it. */
  readonly chosenByUser: boolean;
  /** Phases running with it off now. */
  depth: number;
}

const startFlags = [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/)];

function setting(off: string, on: string, chosenBy: RegExp): PhaseSetting {
  return { off, on, chosenByUser: startFlags.some((arg) => chosenBy.test(arg)), depth: 0 };
}

async function runWithout<T>(setting: PhaseSetting, phase: () => Promise<T>): Promise<T> {
  if (setting.chosenByUser) return phase();
  if (setting.depth++ === 0) setFlagsFromString(setting.off);
  try {
    return await phase();
  } finally {
    if (--setting.depth === 0) setFlagsFromString(setting.on);
  }
}

/**
 * V8 runs a function in its baseline code first and compiles it with TurboFan, on helper threads,
 * once it has run hot; a loop that runs long is compiled while it runs (on-stack replacement) and
 * its function again at its next call. The case explorer's run picking and dump texts, over a few
 * thousand runs, ran once each and cost more in compiling than they saved (the GRPO bench: V8's
 * compiler 186 ms of CPU with the default reports against 82 ms with --report json, perf record at
 * 5 kHz).
 */
const OPTIMIZING = setting("--no-turbofan --no-use-osr", "--turbofan --use-osr", /^--(no-)?(turbofan|opt|use[-_]osr)(=|$)/);

/** Runs `phase` with V8's optimizing compiler and on-stack replacement off (explorer.ts decides when). */
export function unoptimized<T>(phase: () => Promise<T>): Promise<T> {
  return runWithout(OPTIMIZING, phase);
}

/**
 * V8 counts how many of the objects made at each literal in the code survive a young collection,
 * and once nearly all do, makes them in the old generation from then on and throws away the
 * optimized code that makes them (`--trace-pretenuring-statistics`, `--trace-deopt`). Reading a
 * slice keeps every case and its sentences, so each of its literals is switched over once it is
 * hot: the GRPO bench slice's reader was compiled three times on a run without the compiled-slice
 * cache.
 */
const PRETENURING = setting("--no-allocation-site-pretenuring", "--allocation-site-pretenuring", /^--(no-)?allocation[-_]site[-_]pretenuring(=|$)/);

/** Runs `phase` with V8's pretenuring of allocation sites off (slice-store.ts's slice read). */
export function withoutPretenuring<T>(phase: () => Promise<T>): Promise<T> {
  return runWithout(PRETENURING, phase);
}

/**
 * Lines a call of a per-chunk loop function takes at most (run-table.ts's placeLines and
 * shiftStarts). A chunk's thousands of lines in one call had V8 compile the loop on the stack at
 * each of the first chunks, then the whole function again; in calls of a few hundred the function
 * grows hot by its calls (`--trace-opt` on the GRPO bench: placeLines compiled once or twice instead
 * of three or four times, shiftStarts once instead of three).
 */
export const LINES_PER_CALL = 512;
