// Exit codes are a contract with CI jobs (SPEC §4.2); every failure path maps onto one of them.
export const EXIT_OK = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_INPUT_ERROR = 2;
export const EXIT_INTERNAL_ERROR = 3;

/** A problem with what the user gave us (flags, config, files): reported plainly, exit 2. */
export class InputError extends Error {
  readonly exitCode = EXIT_INPUT_ERROR;
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/** Formats a location the way editors and CI annotations understand: `file:line: message`. */
export function located(file: string, line: number | undefined, message: string): string {
  return line === undefined ? `${file}: ${message}` : `${file}:${line}: ${message}`;
}
