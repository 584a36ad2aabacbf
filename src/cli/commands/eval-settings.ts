// `mari eval`'s flags and mari.config.json turned into the task's settings: a pure function (no
// file is read, the environment is passed in), so every precedence rule and every refusal is
// tested in process (test/cli/eval-settings.test.ts). A flag wins over the config, the config
// over the option's declared default; the values are checked in the order a user reads them.
import type { MariConfig } from "../../gates/run-config.js";
import { pickOption } from "../../gates/run-config.js";
import { combineGates } from "../../gates/spec.js";
import { InputError } from "../../io/errors.js";
import type { SentenceRule } from "../../io/slice.js";
import { parseReportFormats } from "../../report/write.js";
import type { DocumentEvalSettings } from "../../tasks/document/evaluate.js";
import type { ReplayPhase } from "../../tasks/document/serve-replay.js";
import { OPTIONS } from "../../core/options/index.js";
import { completionEndFromFlags, type CompletionEndFlags } from "../completion-end-flags.js";
import { gatesFromFlags } from "../gate-flags.js";
import { integerOption } from "../options/add-options.js";
import { progressModeFor, type ProgressMode } from "../progress.js";
import { resolveShard } from "../shard.js";

export interface EvalFlags extends CompletionEndFlags {
  predictions?: string;
  out?: string;
  report?: string;
  rewards?: string;
  baseline?: string;
  gate: string[];
  maxDrop: string[];
  maxInvalidRate?: string;
  workers?: string;
  shard?: string;
  shardCount?: string;
  seed?: string;
  bootstrap?: string;
  progress?: string;
  strict?: boolean;
  quiet?: boolean;
  lenientIds?: boolean;
  limit?: string;
  idField?: string;
  phase?: string;
  cache?: boolean;
  cacheDir?: string;
  config?: string;
  chunkSize?: string;
  costs?: string;
  classifier: string[];
  sentences?: string;
  explorerCases?: string;
}

/** What both tasks take from the flags and the config. */
export interface CommonEvalSettings {
  gates: DocumentEvalSettings["gates"] & {};
  shard: DocumentEvalSettings["shard"];
  outDir: string;
  formats: NonNullable<DocumentEvalSettings["formats"]>;
  quiet: boolean;
  progressMode: ProgressMode;
  strict: boolean;
  /** Undefined: chosen by the task (documents: from the measured cost; pairs: the default count). */
  workersAsked: number | undefined;
  explorerCases: number | undefined;
}

/** What both tasks take from the flags and the config, checked in this order. */
export function commonEvalSettings(flags: EvalFlags, config: MariConfig, env: NodeJS.ProcessEnv): CommonEvalSettings {
  const gates = combineGates(gatesFromFlags(flags), config.gates);
  const shard = resolveShard(flags.shard, flags.shardCount, env);
  const outDir = pickOption(flags.out, config.out, OPTIONS.out.default);
  const formats = parseReportFormats(flags.report ?? config.report);
  const quiet = pickOption(flags.quiet, config.quiet, OPTIONS.quiet.default);
  const progressMode = progressModeFor(flags.progress ?? config.progress, quiet);
  const strict = pickOption(flags.strict, config.strict, OPTIONS.strict.default);
  const workersAsked = pickOption(integerOption("workers", flags.workers), config.workers, undefined);
  const explorerCases = integerOption("explorerCases", flags.explorerCases);
  return { gates, shard, outDir, formats, quiet, progressMode, strict, workersAsked, explorerCases };
}

/** The settings of `evaluateDocuments`, but the observer and the start time. */
export type DocumentEvalPlan = Omit<DocumentEvalSettings, "observer" | "started"> & {
  outDir: string;
  gates: NonNullable<DocumentEvalSettings["gates"]>;
  seed: number;
  bootstrap: number;
};

/** A document slice's eval: the common settings, then the document ones (seed, bootstrap, …). */
export function documentEvalSettings(slicePath: string, flags: EvalFlags, config: MariConfig, common: CommonEvalSettings): DocumentEvalPlan {
  const { shard, outDir, formats, gates, strict, workersAsked, explorerCases } = common;
  const seed = pickOption(integerOption("seed", flags.seed), config.seed, OPTIONS.seed.default);
  const bootstrap = pickOption(integerOption("bootstrap", flags.bootstrap), config.bootstrap, OPTIONS.bootstrap.default);
  const rewardsPath = flags.rewards ?? config.rewards;
  const baselinePath = flags.baseline ?? config.baseline;
  const chunkLines = integerOption("chunkSize", flags.chunkSize);
  const completionEnd = completionEndFromFlags(flags);
  const limit = integerOption("limit", flags.limit);
  const sentences: SentenceRule = pickOption(flags.sentences as SentenceRule | undefined, config.sentences, OPTIONS.sentences.default);
  return {
    slicePath,
    ...(flags.predictions !== undefined ? { dumpPath: flags.predictions } : {}),
    outDir,
    formats,
    strict,
    sentences,
    // Unset: chosen from the measured cost of scoring the dump's first block.
    workers: workersAsked ?? "auto",
    gates,
    seed,
    bootstrap,
    ...(shard ? { shard } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(flags.idField !== undefined ? { idField: flags.idField } : {}),
    // Commander has checked the value against the option's choices.
    ...(flags.phase !== undefined ? { phase: flags.phase as ReplayPhase } : {}),
    lenientIds: pickOption(flags.lenientIds, config.lenient_ids, OPTIONS.lenientIds.default),
    ...(completionEnd ? { completionEnd } : {}),
    ...(rewardsPath !== undefined ? { rewardsPath } : {}),
    ...(baselinePath !== undefined ? { baselinePath } : {}),
    ...(chunkLines !== undefined ? { chunkLines } : {}),
    ...(explorerCases !== undefined ? { explorerCases } : {}),
    configPath: config.path,
  };
}

/**
 * A pair corpus (docs/pairs.md) is evaluated by the pair task with the built-in classifier. Flags that
 * only mean something for documents are refused rather than ignored: a silently ignored
 * --predictions would report the classifier's numbers as if they were the user's model's.
 */
export function refuseDocumentOnlyFlags(slicePath: string, flags: EvalFlags): void {
  const documentOnly = [
    ["--predictions", flags.predictions],
    ["--rewards", flags.rewards],
    ["--baseline", flags.baseline],
    ["--seed", flags.seed],
    ["--bootstrap", flags.bootstrap],
    ["--lenient-ids", flags.lenientIds],
    ["--keep-special-tokens", flags.keepSpecialTokens],
    ["--special-token", flags.specialToken?.length ? flags.specialToken : undefined],
    ["--sentences", flags.sentences],
    ["--limit", flags.limit],
    ["--id-field", flags.idField],
    ["--phase", flags.phase],
  ].filter(([, value]) => value !== undefined && value !== false);
  if (documentOnly.length > 0) {
    throw new InputError(
      `${slicePath}: a pair corpus is evaluated by the built-in classifier; ${documentOnly.map(([name]) => name).join(", ")} only apply to document slices`,
    );
  }
}
