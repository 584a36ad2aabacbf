// What every report-writing task returns to its caller. The caller (the CLI, or a library user)
// decides what to print and which exit code follows; tasks only describe what happened.
import type { Report } from "../report/types.js";

export interface ReportOutcome {
  report: Report;
  outDir: string;
  /** Files written, in the order a summary lists them. */
  files: string[];
  /**
   * Reasons the run counts as an input error although its reports were written (`--strict` with
   * rejected records, nothing scored), one message each. Empty when the gates alone decide.
   */
  inputErrors: string[];
}
