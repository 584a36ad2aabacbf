// The thin CLI: parses flags, hands off to a task, maps outcomes onto exit codes (the exit codes in README.md, "Commands").
import { createRequire } from "node:module";
import type * as Commander from "commander";
import { InputError } from "../io/errors.js";
import { EXIT_INPUT_ERROR, EXIT_INTERNAL_ERROR, EXIT_OK } from "./exit-codes.js";
import { MARI_VERSION } from "../version.js";
import { COMMANDS, isCommandName, type CommandName } from "./command-list.js";
import type { ActionWrapper } from "./command.js";

// commander is CommonJS: required as such rather than imported through its ES module wrapper, for
// which Node parses commander's source a second time to find its exports (a slower start).
const { Command, CommanderError, Help } = createRequire(import.meta.url)("commander") as typeof Commander;

export async function main(argv: string[]): Promise<number> {
  let exitCode = EXIT_OK;
  const wrap: ActionWrapper =
    (action) =>
    async (...args) => {
      try {
        exitCode = await action(...args);
      } catch (err) {
        // A phase the error ended is "stopped" on the display, above the error. The display's
        // module is loaded by the commands that show phases; the others need not load it first.
        (await import("./observer.js")).stopOpenPhases();
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
    // One line after a usage error, not the whole help (which `--help` prints).
    .showHelpAfterError("(mari COMMAND --help lists every flag)")
    .configureHelp({
      // One style for defaults in every command: "(default X)", as the flags' own texts write it;
      // a repeatable flag's empty start list is not a default worth showing.
      optionDescription: (option) => {
        const value = option.defaultValue;
        if (Array.isArray(value) && value.length === 0) return option.description;
        if (value === undefined) return new Help().optionDescription(option);
        return `${option.description} (default ${option.defaultValueDescription ?? String(value)})`;
      },
    });
  // Only the command being run (or asked about with `help`) is loaded in full; the others are
  // listed by name and summary for the top-level help.
  const target = requestedCommand(argv.slice(2));
  for (const name of Object.keys(COMMANDS) as CommandName[]) {
    if (name === target) (await COMMANDS[name].load())(program, wrap, COMMANDS[name].summary);
    else program.command(name).description(COMMANDS[name].summary);
  }

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

/** The command named on the command line: the first operand, or the one after `help`. */
function requestedCommand(args: readonly string[]): CommandName | undefined {
  const operands = args.filter((a) => !a.startsWith("-"));
  const first = operands[0] === "help" ? operands[1] : operands[0];
  return isCommandName(first) ? first : undefined;
}
