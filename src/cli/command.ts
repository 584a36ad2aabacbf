// What a command module is to the CLI's entry point: the action it runs and how it registers.
// These types live apart from main.ts and command-list.ts so that the command modules, which
// both of those load, import neither of them (no import circle).
import type { Command } from "commander";

/** What every command action returns: the process exit code. */
export type CommandAction = (...args: any[]) => Promise<number>;

/** Wraps an action so that its exit code (or error) is captured rather than thrown at commander. */
export type ActionWrapper = (action: CommandAction) => (...args: any[]) => Promise<void>;

/** Adds one command to the program; `summary` is its one-line description from command-list.ts. */
export type Register = (program: Command, wrap: ActionWrapper, summary: string) => void;
