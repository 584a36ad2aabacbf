// The observer the CLI hands to tasks: progress bars or plain lines, and `mari: …` messages, all on
// stderr (stdout carries the summary and, for some commands, data).
import type { RunObserver } from "../io/observer.js";
import { createProgress, type ProgressMode } from "./progress.js";

/** Notes are dropped with `quiet`; warnings and rejected records never are. */
export function terminalObserver(mode: ProgressMode, quiet = false, stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr): RunObserver {
  const log = (message: string): void => void stream.write(`mari: ${message}\n`);
  return {
    progress: (label, total) => createProgress({ mode, label, ...(total !== undefined ? { total } : {}), stream }),
    log,
    note: quiet ? () => {} : log,
  };
}
