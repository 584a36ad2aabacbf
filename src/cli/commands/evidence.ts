// `mari evidence DOCS --facts FACTS [--located FILE --materials FILE] [--out DIR]` (docs/evidence.md):
// validates model citations against exactly the documents and materials each model saw.
// Flags win over mari.config.json, which wins over defaults.
import { lockOutputDir } from "../../io/lock.js";
import type { Command } from "commander";
import type { ActionWrapper } from "../command.js";
import { addOptions } from "../options/add-options.js";
import { OPTIONS } from "../../core/options/index.js";
import { InputError } from "../../io/errors.js";
import { progressModeFor } from "../progress.js";
import { terminalObserver } from "../observer.js";
import { finishReportRun } from "../summary.js";
import { loadMariConfig, pickOption } from "../../gates/run-config.js";
import { combineGates } from "../../gates/spec.js";
import { gatesFromFlags } from "../gate-flags.js";
import { resolveShard } from "../shard.js";
import { parseReportFormats } from "../../report/write.js";
import { runEvidence } from "../../tasks/evidence/run.js";

interface EvidenceFlags {
  facts?: string;
  located?: string;
  materials?: string;
  current?: string;
  out?: string;
  report?: string;
  gate: string[];
  maxInvalidRate?: string;
  threshold?: string;
  strict?: boolean;
  quiet?: boolean;
  progress?: string;
  config?: string;
  shard?: string;
  shardCount?: string;
}

function thresholdFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.trim());
  if (!/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) || value > 1) throw new InputError(`--threshold "${text}": expected a number from 0 to 1`);
  return value;
}

export function registerEvidence(program: Command, wrap: ActionWrapper, summary: string): void {
  const command = program
    .command("evidence")
    .description(summary)
    .argument("<docs>", "documents: JSONL, CSV or JSON array of {source_id, external_id | document_id, revision, body, title?}");
  addOptions(command, "evidence").addHelpText(
    "after",
    `
Writes cases.jsonl (one line per facts case), located.jsonl (one per located case) and the report
files into --out. One bad citation fails its case, never the run.

Examples:
  mari evidence datasets/evidence-example/docs.jsonl --facts datasets/evidence-example/facts.jsonl \\
    --located datasets/evidence-example/located.jsonl --materials datasets/evidence-example/materials.jsonl \\
    --gate 'accepted_rate>=0.5'

Exit codes: 0 every gate passed; 1 a gate failed; 2 usage or input error (unreadable inputs, zero
cases, --strict with rejected records); 3 internal error.`,
  );
  command.action(wrap(async (docs: string, flags: EvidenceFlags) => evidenceCommand(docs, flags)));
}

async function evidenceCommand(docs: string, flags: EvidenceFlags): Promise<number> {
  const config = await loadMariConfig(flags.config, undefined, "evidence");
  const flagGates = gatesFromFlags(flags);
  const shard = resolveShard(flags.shard, flags.shardCount);
  const threshold = thresholdFlag(flags.threshold);
  const quiet = pickOption(flags.quiet, config.quiet, false);
  const out = pickOption(flags.out, config.out, OPTIONS.out.default);
  lockOutputDir(out);
  const outcome = await runEvidence({
    documents: docs,
    ...(flags.facts !== undefined ? { facts: flags.facts } : {}),
    ...(flags.located !== undefined ? { located: flags.located } : {}),
    ...(flags.materials !== undefined ? { materials: flags.materials } : {}),
    ...(flags.current !== undefined ? { current: flags.current } : {}),
    out,
    formats: parseReportFormats(flags.report ?? config.report),
    gates: combineGates(flagGates, config.gates),
    ...(threshold !== undefined ? { thresholds: { entailment: threshold, contradiction: threshold } } : {}),
    strict: pickOption(flags.strict, config.strict, false),
    observer: terminalObserver(progressModeFor(flags.progress ?? config.progress, quiet), quiet),
    recordConfig: config.path ? { config_file: config.path } : {},
    ...(shard ? { shard } : {}),
  });
  return finishReportRun(outcome, quiet);
}
