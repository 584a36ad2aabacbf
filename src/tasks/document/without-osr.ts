// V8 compiles a loop that runs long while it runs (on-stack replacement, OSR), and compiles its
// function again when the function is next called. A phase whose loops each run once, over a
// report's cases and runs, pays for the on-stack compile and then seldom or never runs the code
// it made: report.html's case explorer is such a phase (its reads of the dump's texts, the picking
// of its runs, the page's data and markup). Run without OSR, each of those loops finishes in V8's
// baseline code, and a function it calls again is still optimized as usual. On the GRPO bench the
// default reports cost 0.94–0.96× the CPU this way (docs/eval.md, "Performance").
import { setFlagsFromString } from "node:v8";

/** Phases running without OSR now (nested or overlapping runs switch it back on only when the last ends). */
let depth = 0;

/** Whether the process was started with its own choice of OSR, which is then left as it is. */
const chosenByUser = [...process.execArgv, process.env["NODE_OPTIONS"] ?? ""].some((arg) => arg.includes("use-osr") || arg.includes("use_osr"));

/** Runs `phase` with V8's on-stack replacement off, switched on again when it ends, however it ends. */
export async function withoutOsr<T>(phase: () => Promise<T>): Promise<T> {
  if (chosenByUser) return phase();
  if (depth++ === 0) setFlagsFromString("--no-use-osr");
  try {
    return await phase();
  } finally {
    if (--depth === 0) setFlagsFromString("--use-osr");
  }
}
