// Shard runs in this process, for tests whose subject is what `mari merge` makes of the shard
// reports, not how the shards were started: the tasks with the settings `mari eval` and `mari
// evidence` give them when no config file is found (a child process costs about 0.2 s of CPU).
import { join } from "node:path";
import {
  classifierConfigFromFlags,
  evaluateDocuments,
  evaluateEvidence,
  evaluatePairs,
  type GateSpec,
  parseGateFlag,
  parseMaxInvalidRate,
  type Shard,
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

/** What a shard run reads: a document slice (and dump), a pair corpus, or the evidence inputs. */
export type ShardInput =
  | { task: "documents"; slicePath: string; dumpPath?: string; bootstrap?: number; formats?: ReportFormat[] }
  | { task: "pairs"; pairs: string; formats?: ReportFormat[] }
  | { task: "evidence"; documents: string; facts: string; located: string; materials: string; current: string };

/** `mari eval|evidence INPUT --shard i/count --out OUT` with these gates, in this process. */
export async function runShard(input: ShardInput, gates: readonly GateSpec[], shard: Shard, out: string): Promise<void> {
  if (input.task === "documents") {
    const { task: _, ...settings } = input;
    await evaluateDocuments({ ...settings, outDir: out, gates, shard, workers: 1, configPath: null });
  } else if (input.task === "pairs") {
    await evaluatePairs({
      pairs: input.pairs,
      ...(input.formats ? { formats: input.formats } : {}),
      out,
      classifierConfig: classifierConfigFromFlags([]),
      gates,
      shard,
      workers: 1,
      recordConfig: {},
    });
  } else {
    const { task: _, ...files } = input;
    await evaluateEvidence({ ...files, out, gates, shard, recordConfig: {} });
  }
}

/** `count` shard runs into DIR/shard-I; returns their report.json paths in shard order. */
export async function runShards(input: ShardInput, gates: readonly GateSpec[], count: number, dir: string): Promise<string[]> {
  const reports: string[] = [];
  for (let index = 0; index < count; index++) {
    const out = join(dir, `shard-${index}`);
    await runShard(input, gates, { index, count }, out);
    reports.push(join(out, "report.json"));
  }
  return reports;
}
