// V8 runs a function in its baseline code first and compiles it with TurboFan, on helper threads,
// once it has run hot; a loop that runs long is compiled while it runs (on-stack replacement) and
// its function again at its next call. That pays for itself on a long run, not on a short one: the
// case explorer's run picking and dump texts, over a few thousand runs, ran once each and cost more
// in compiling than they saved (the GRPO bench: V8's compiler 186 ms of CPU with the default
// reports against 82 ms with --report json, perf record at 5 kHz). `unoptimized` runs such a phase
// in baseline code only; the caller decides it is short (explorer.ts).
import { setFlagsFromString } from "node:v8";

/** Phases running unoptimized now (nested ones switch the compiler back on only when the outer one ends). */
let depth = 0;

/** The flags that choose these compilers: a process started with one is left as it is. */
const COMPILER_FLAG = /^--(no-)?(turbofan|opt|use[-_]osr)(=|$)/;
const chosenByUser = [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/)].some((arg) => COMPILER_FLAG.test(arg));

/** Runs `phase` with V8's optimizing compiler and on-stack replacement off, back on when it ends, however it ends. */
export async function unoptimized<T>(phase: () => Promise<T>): Promise<T> {
  if (chosenByUser) return phase();
  if (depth++ === 0) setFlagsFromString("--no-turbofan --no-use-osr");
  try {
    return await phase();
  } finally {
    if (--depth === 0) setFlagsFromString("--turbofan --use-osr");
  }
}
