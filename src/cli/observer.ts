// The observer the CLI hands to tasks: progress bars or plain lines, and `mari: …` messages, all on
// stderr (stdout carries the summary and, for some commands, data). Every command shows its phases
// through this one observer, so `--progress` and `--quiet` mean the same everywhere.
import type { RunObserver } from "../io/observer.js";
import { createProgress, type Progress, type ProgressMode } from "./progress.js";

/** The phases of this process still on the display. */
const open = new Set<Progress>();

/**
 * Ends the phases still open as "stopped": called on an interrupt, before an error is printed, and
 * when the process exits, so a display never leaves a phase looking finished or unfinished wrongly.
 */
export function stopOpenPhases(): void {
  for (const progress of open) progress.done(false);
  open.clear();
  process.off("exit", stopOpenPhases);
}

export interface TerminalObserverOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** What starts a `log` line (default "mari: "). */
  logPrefix?: string;
  /** What starts a `note` line (default the log prefix). */
  notePrefix?: string;
}

/** Notes are dropped with `quiet`; warnings and rejected records never are. */
export function terminalObserver(mode: ProgressMode, quiet = false, options: TerminalObserverOptions = {}): RunObserver {
  const stream = options.stream ?? process.stderr;
  const logPrefix = options.logPrefix ?? "mari: ";
  const notePrefix = options.notePrefix ?? logPrefix;
  // A message while a bar is drawn goes through the bar, which clears and redraws itself around it.
  let active: Progress | null = null;
  const write = (line: string): void => {
    if (active && open.has(active)) active.log(line);
    else stream.write(`${line}\n`);
  };
  return {
    progress: (label, total) => {
      const progress = createProgress({ mode, label, ...(total !== undefined ? { total } : {}), stream });
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
  };
}
