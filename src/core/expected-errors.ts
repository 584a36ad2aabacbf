// Validators signal rejected input by throwing (the reference's ValueError / MalformedModelOutput);
// such errors are expected data, caught and reported, so their stack traces are never read.
// Capturing one per rejected record cost more than checking the record.

/** Runs `fn` with stack-trace capture off (restored afterwards, also when `fn` throws). */
export function withoutStackTraces<T>(fn: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
