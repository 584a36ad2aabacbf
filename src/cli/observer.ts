// The observer the CLI hands to tasks: progress bars or plain lines, and `mari: …` messages, all on
// stderr (stdout carries the summary and, for some commands, data).
import type { RunObserver } from "../io/observer.js";
import { createProgress, type Progress, type ProgressMode } from "./progress.js";

/** Notes are dropped with `quiet`; warnings and rejected records never are. */
export function terminalObserver(mode: ProgressMode, quiet = false, stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr): RunObserver {
  // A message while a bar is drawn goes through the bar, which clears and redraws itself around it.
  let active: Progress | null = null;
  const log = (message: string): void => {
    if (active) active.log(`mari: ${message}`);
    else stream.write(`mari: ${message}\n`);
  };
  return {
    progress: (label, total) => {
      const progress = createProgress({ mode, label, ...(total !== undefined ? { total } : {}), stream });
      active = progress;
      return {
        tick: (n) => progress.tick(n),
        done: (completed) => {
          progress.done(completed);
          if (active === progress) active = null;
        },
      };
    },
    log,
    note: quiet ? () => {} : log,
  };
}
