// The gate flags, spelt and read the same way by every command that decides (eval, evidence, merge).
import type { Command } from "commander";
import { collect } from "./flags.js";
import { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate, type GateSpec } from "../gates/spec.js";

export interface GateFlags {
  gate: string[];
  maxDrop?: string[];
  maxInvalidRate?: string;
}

/** Adds --gate, --max-invalid-rate and (when the task has a baseline comparison) --max-drop. */
export function addGateOptions(command: Command, opts: { maxDrop: boolean; example: string; invalid: string }): Command {
  command.option(
    "--gate <condition>",
    `METRIC>=VALUE or METRIC<=VALUE, in quotes (the shell reads a bare > as a redirect), e.g. --gate '${opts.example}' (repeatable)`,
    collect,
    [],
  );
  if (opts.maxDrop) command.option("--max-drop <metric=delta>", "largest allowed drop vs --baseline, e.g. macro_f1=0.02 (repeatable)", collect, []);
  command.option("--max-invalid-rate <r>", opts.invalid);
  return command;
}

/** The flags' gates, in the order given (they win over config and defaults; see combineGates). */
export function gatesFromFlags(flags: GateFlags): GateSpec[] {
  return [
    ...flags.gate.map((text) => parseGateFlag(text)),
    ...(flags.maxDrop ?? []).map((text) => parseMaxDropFlag(text)),
    ...(flags.maxInvalidRate !== undefined ? [parseMaxInvalidRate(flags.maxInvalidRate)] : []),
  ];
}
