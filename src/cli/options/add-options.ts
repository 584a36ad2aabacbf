// A command's commander options, built from the option table: the command names the options it
// takes (command-options.ts) and each is declared once in src/core/options/.
import type { Command, Option } from "commander";
import { OPTIONS, optionHelp, type OptionName, type OptionSpec } from "../../core/options/index.js";
import { boundedInteger } from "../../io/bounded-flag.js";
import { COMMAND_OPTIONS, type OptionCommand } from "./command-options.js";
import { collect } from "../flags.js";

/**
 * The commander option of `spec` as command `command` shows it, made by `program` (so that this
 * module does not load commander itself: main.ts does, once).
 */
function commanderOption(program: Command, spec: OptionSpec, command: OptionCommand): Option {
  const option = program.createOption(spec.value === undefined ? spec.flag : `${spec.flag} ${spec.value}`, optionHelp(spec, command));
  // No commander default: a flag left out stays undefined, so the config file's value can win
  // over the default (see pickOption); the default is in the help text instead.
  if (spec.choices !== undefined) option.choices(spec.choices);
  if (spec.repeatable) option.argParser(collect).default([]);
  if (spec.mandatory) option.makeOptionMandatory();
  if (spec.hidden) option.hideHelp();
  return option;
}

/** Adds every option `command` takes, in its order. */
export function addOptions(program: Command, command: OptionCommand): Command {
  for (const name of COMMAND_OPTIONS[command]) program.addOption(commanderOption(program, OPTIONS[name as OptionName], command));
  return program;
}

/** An integer option's value within its declared bounds; undefined when the flag was not given. */
export function integerOption(name: OptionName, text: string | undefined): number | undefined {
  const spec: OptionSpec = OPTIONS[name];
  if (spec.min === undefined || spec.max === undefined) throw new Error(`${spec.flag} is not an integer option`);
  return text === undefined ? undefined : boundedInteger(spec.flag, text, spec.min, spec.max);
}
