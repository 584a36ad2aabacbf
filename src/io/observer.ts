// How a long-running task tells its caller what it is doing, without printing anything itself:
// the CLI passes a terminal observer (bars and `mari: …` lines on stderr), a library user passes
// nothing (silence) or their own. Tasks return their results; only observers talk to people.

/** A counter for one phase of a run. */
export interface Progress {
  tick(n?: number): void;
  /** The phase is over; `completed` false when it ended early (an error, an interrupt): not "done". */
  done(completed?: boolean): void;
}

export interface RunObserver {
  /** A progress counter for one phase (`total` when known, in the phase's own unit). */
  progress(label: string, total?: number): Progress;
  /** One line the user must see: a rejected record, a warning (no trailing newline). */
  log(message: string): void;
  /** One line of information the user may silence (`--quiet`): what a default did, where a file went. */
  note(message: string): void;
}

const SILENT_PROGRESS: Progress = { tick() {}, done() {} };

/** Says nothing: the default for library calls. */
export const SILENT_OBSERVER: RunObserver = {
  progress: () => SILENT_PROGRESS,
  log() {},
  note() {},
};

/**
 * Runs one phase of a run under its own counter: "done" when `step` returns, "stopped" when it
 * throws (an input error, fail-fast), so a display never says a phase finished that did not.
 */
export async function inPhase<T>(observer: RunObserver, label: string, total: number | undefined, step: (progress: Progress) => Promise<T> | T): Promise<T> {
  const progress = observer.progress(label, total);
  let completed = false;
  try {
    const value = await step(progress);
    completed = true;
    return value;
  } finally {
    progress.done(completed);
  }
}

/** A phase of one step (a total of 1, ticked when `step` returns): writing the files, building a page. */
export function inOneStep<T>(observer: RunObserver, label: string, step: () => Promise<T> | T): Promise<T> {
  return inPhase(observer, label, 1, async (progress) => {
    const value = await step();
    progress.tick();
    return value;
  });
}
