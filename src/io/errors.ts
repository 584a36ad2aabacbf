// Errors that any layer may raise. They live at the ground floor so that core-adjacent readers,
// tasks and the CLI share one type; only the CLI maps them onto exit codes.

/** A problem with what the user gave us (flags, config, files): reported plainly, never as a crash. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/** Formats a location the way editors and CI annotations understand: `file:line: message`. */
export function located(file: string, line: number | undefined, message: string): string {
  return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
}
