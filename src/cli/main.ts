// The thin CLI: parses flags, hands off to a task, maps outcomes onto exit codes (SPEC §4.2).
import { Command, CommanderError } from "commander";
import { EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR, EXIT_OK, InputError } from "./errors.js";
import { registerEval } from "./commands/eval.js";
import { registerPredict } from "./commands/predict.js";
import { registerClassify } from "./commands/classify.js";
import { registerSweep } from "./commands/sweep.js";
import { registerEvidence } from "./commands/evidence.js";
import { registerMerge } from "./commands/merge.js";
import { MARI_VERSION } from "../version.js";

/** What every command action returns: the process exit code. */
export type CommandAction = (...args: any[]) => Promise<number>;

/** Wraps an action so that its exit code (or error) is captured rather than thrown at commander. */
export type ActionWrapper = (action: CommandAction) => (...args: any[]) => Promise<void>;

export async function main(argv: string[]): Promise<number> {
  let exitCode = EXIT_OK;
  const wrap: ActionWrapper = (action) => async (...args) => {
    try {
      exitCode = await action(...args);
    } catch (err) {
      if (err instanceof InputError) {
        process.stderr.write(`mari: ${err.message}\n`);
        exitCode = EXIT_INPUT_ERROR;
      } else {
        process.stderr.write(`mari: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
        exitCode = EXIT_INTERNAL_ERROR;
      }
    }
  };

  const program = new Command("mari")
    .description("Deterministic evaluation of document-judging models: self-contradiction, memory revision, evidence contracts")
    .version(MARI_VERSION)
    .exitOverride()
    .showHelpAfterError();
  registerEval(program, wrap);
  registerPredict(program, wrap);
  registerClassify(program, wrap);
  registerSweep(program, wrap);
  registerEvidence(program, wrap);
  registerMerge(program, wrap);

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return err.exitCode === 0 ? EXIT_OK : EXIT_INPUT_ERROR;
    }
    throw err;
  }
  return exitCode;
}
