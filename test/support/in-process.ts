// Evaluations in this process, for tests whose subject is what is done with their reports (merged,
// compared, trended, shown in a browser), not how the run was started: the tasks with the settings
// `mari eval` and `mari evidence` give them when no config file is found (a child process costs
// about 0.2 s of CPU).
import { join } from "node:path";
import {
  classifierConfigFromFlags,
  evaluateDocuments,
  runEvidence,
  runPairEval,
  type GateSpec,
  parseGateFlag,
  parseMaxInvalidRate,
  type DocumentEvalSettings,
  type EvidenceOptions,
  type PairEvalOptions,
  type Shard,
  sniffSliceTask,
} from "../../src/index.js";
import type { ReportFormat } from "../../src/report/types.js";

/** The gates of `--gate X` and `--max-invalid-rate X` flags, in the order given. */
export function gatesOf(flags: readonly string[]): GateSpec[] {
  const gates: GateSpec[] = [];
  for (let i = 0; i < flags.length; i += 2) {
    const value = flags[i + 1]!;
    if (flags[i] === "--gate") gates.push(parseGateFlag(value));
    else if (flags[i] === "--max-invalid-rate") gates.push(parseMaxInvalidRate(value));
    else throw new Error(`gatesOf: ${flags[i]} is not a gate flag`);
  }
  return gates;
}

/** What a run reads, and the task's settings that are not the defaults: a document slice, a pair corpus, the evidence inputs. */
export type TaskInput =
  | ({ task: "documents" } & Omit<DocumentEvalSettings, "outDir" | "gates" | "shard">)
  | ({ task: "pairs" } & Omit<PairEvalOptions, "out" | "gates" | "shard">)
  | ({ task: "evidence" } & Omit<EvidenceOptions, "out" | "gates" | "shard">);

/** A slice of either task as `mari eval` reads it (it tells them apart by their records). */
export async function sliceInput(path: string, formats?: ReportFormat[]): Promise<TaskInput> {
  const task = await sniffSliceTask(path);
  const settings = formats ? { formats } : {};
  return task === "pairs" ? { task, pairs: path, ...settings } : { task, slicePath: path, ...settings };
}

/** `mari eval|evidence INPUT --out OUT` with these gates (and `--shard`), in this process. */
export async function runTask(input: TaskInput, out: string, gates: readonly GateSpec[] = [], shard?: Shard): Promise<void> {
  const sharded = shard ? { shard } : {};
  if (input.task === "documents") {
    const { task: _, ...settings } = input;
    await evaluateDocuments({ workers: 1, configPath: null, ...settings, outDir: out, gates, ...sharded });
  } else if (input.task === "pairs") {
    const { task: _, ...settings } = input;
    await runPairEval({ classifierConfig: classifierConfigFromFlags([]), workers: 1, recordConfig: {}, ...settings, out, gates, ...sharded });
  } else {
    const { task: _, ...settings } = input;
    await runEvidence({ recordConfig: {}, ...settings, out, gates, ...sharded });
  }
}

/** `count` shard runs into DIR/shard-I; returns their report.json paths in shard order. */
export async function runShards(input: TaskInput, gates: readonly GateSpec[], count: number, dir: string): Promise<string[]> {
  const reports: string[] = [];
  for (let index = 0; index < count; index++) {
    const out = join(dir, `shard-${index}`);
    await runTask(input, out, gates, { index, count });
    reports.push(join(out, "report.json"));
  }
  return reports;
}
