// Library entry point: the pure core, for users who score inside their own training loop.
export { MARI_VERSION } from "./version.js";
export * from "./core/classifier/index.js";
export * from "./core/document/index.js";
export * from "./core/evidence/index.js";
export * from "./core/pairs/index.js";

// The tasks: what each command does, as functions that read inputs, write the report files and
// return the report; they print nothing and choose no exit code (the CLI does both).
// Each call is a run of its own: the files one call read are not inputs of the next, so a report
// directory read as a baseline may be written by a later call (src/io/output-guard.ts).
import { withRunInputs } from "./io/output-guard.js";
import { evaluateDocuments as evaluateDocumentsTask } from "./tasks/document/evaluate.js";
import { runDocumentMerge } from "./tasks/document/merge.js";
import { runPairEval } from "./tasks/pairs/run.js";
import { runPairMerge } from "./tasks/pairs/merge.js";
import { runSweep } from "./tasks/pairs/sweep.js";
import { runEvidence } from "./tasks/evidence/run.js";
import { runEvidenceMerge } from "./tasks/evidence/merge.js";

const asRun =
  <A extends unknown[], R>(task: (...args: A) => Promise<R>) =>
  (...args: A): Promise<R> =>
    withRunInputs(() => task(...args));

export const evaluateDocuments = asRun(evaluateDocumentsTask);
export const mergeDocumentShardReports = asRun(runDocumentMerge);
export const evaluatePairs = asRun(runPairEval);
export const mergePairShardReports = asRun(runPairMerge);
export const sweepPairs = asRun(runSweep);
export const evaluateEvidence = asRun(runEvidence);
export const mergeEvidenceShardReports = asRun(runEvidenceMerge);
export { LEXICAL_DUMP_NAME, type DocumentEvalSettings } from "./tasks/document/evaluate.js";
export type { DocumentMergeOptions } from "./tasks/document/merge.js";
export { classifierConfigFromFlags, type PairEvalOptions } from "./tasks/pairs/run.js";
export type { PairMergeOptions } from "./tasks/pairs/merge.js";
export type { SweepOptions, SweepOutcome } from "./tasks/pairs/sweep.js";
export type { EvidenceOptions } from "./tasks/evidence/run.js";
export type { EvidenceMergeOptions } from "./tasks/evidence/merge.js";
export type { ReportOutcome } from "./tasks/outcome.js";
export type { Shard } from "./tasks/document/run.js";
export { SILENT_OBSERVER, type Progress, type RunObserver } from "./io/observer.js";
export { InputError, located } from "./io/errors.js";
export { sniffSliceTask } from "./io/slice.js";
export type { GateSpec } from "./gates/spec.js";
export { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate } from "./gates/spec.js";
export { checkGates, decideGates } from "./gates/decide.js";
export { caseReaderOf, compareWithBaseline, loadBaseline, readPairedOutcomes, readPairedSide, type Baseline, type CaseReader } from "./gates/baseline.js";
export { readDocumentCases, type CaseItem } from "./report/document-cases.js";
export { pairedComparison, pairedSideComparison, type PairedOutcome } from "./gates/paired.js";
export { PairedSide, pairedSide } from "./gates/paired-side.js";
export type { Report } from "./report/types.js";
export { startRewardsServer, type RewardsServer, type RewardsServerOptions } from "./server/rewards-server.js";
