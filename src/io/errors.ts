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

/** File-system failures that are the user's to fix (exit 2), not internal errors. */
const USER_FS_ERRORS = new Set(["EACCES", "EPERM", "ENOTDIR", "EISDIR", "EROFS", "ENOSPC", "ENOENT", "EEXIST"]);

/** Runs `action`, reporting an unwritable output location as an input error naming the path. */
export async function asInputErrors<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (!(err instanceof InputError) && e.code !== undefined && USER_FS_ERRORS.has(e.code)) {
      throw new InputError(`${e.path ?? "output"}: cannot write (${e.message})`);
    }
    throw err;
  }
}
