// The gate flags, spelt and read the same way by every command that decides (eval, evidence, merge).
import { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate, type GateSpec } from "../gates/spec.js";

export interface GateFlags {
  gate: string[];
  maxDrop?: string[];
  maxInvalidRate?: string;
}

/** The flags' gates, in the order given (they win over config and defaults; see combineGates). */
export function gatesFromFlags(flags: GateFlags): GateSpec[] {
  return [
    ...flags.gate.map((text) => parseGateFlag(text)),
    ...(flags.maxDrop ?? []).map((text) => parseMaxDropFlag(text)),
    ...(flags.maxInvalidRate !== undefined ? [parseMaxInvalidRate(flags.maxInvalidRate)] : []),
  ];
}
