// The observer the CLI hands to tasks: progress bars or plain lines, and `mari: …` messages, all on
// stderr (stdout carries the summary and, for some commands, data). Every command shows its phases
// through this one observer, so `--progress` and `--quiet` mean the same everywhere.
import type { RunObserver } from "../io/observer.js";
import { createProgress, type Progress, type ProgressMode } from "./progress.js";

export interface TerminalObserver extends RunObserver {
  /** Ends the phases still open as "stopped" (an interrupt); the display then says nothing more about them. */
  stopOpenPhases(): void;
}

export interface TerminalObserverOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** What starts a `log` line (default "mari: "). */
  logPrefix?: string;
  /** What starts a `note` line (default the log prefix). */
  notePrefix?: string;
}

/** Notes are dropped with `quiet`; warnings and rejected records never are. */
export function terminalObserver(mode: ProgressMode, quiet = false, options: TerminalObserverOptions = {}): TerminalObserver {
  const stream = options.stream ?? process.stderr;
  const logPrefix = options.logPrefix ?? "mari: ";
  const notePrefix = options.notePrefix ?? logPrefix;
  // A message while a bar is drawn goes through the bar, which clears and redraws itself around it.
  let active: Progress | null = null;
  const open = new Set<Progress>();
  const write = (line: string): void => {
    if (active) active.log(line);
    else stream.write(`${line}\n`);
  };
  const stopOpenPhases = (): void => {
    for (const progress of open) progress.done(false);
    open.clear();
    active = null;
    process.off("exit", stopOpenPhases);
  };
  return {
    progress: (label, total) => {
      const progress = createProgress({ mode, label, ...(total !== undefined ? { total } : {}), stream });
      // A process that ends (Ctrl-C, a signal's exit) with a phase open says "stopped", never "done".
      if (open.size === 0) process.once("exit", stopOpenPhases);
      open.add(progress);
      active = progress;
      return {
        tick: (n) => progress.tick(n),
        done: (completed) => {
          if (!open.delete(progress)) return;
          progress.done(completed);
          if (active === progress) active = null;
          if (open.size === 0) process.off("exit", stopOpenPhases);
        },
      };
    },
    log: (message) => write(`${logPrefix}${message}`),
    note: quiet ? () => {} : (message) => write(`${notePrefix}${message}`),
    stopOpenPhases,
  };
}
