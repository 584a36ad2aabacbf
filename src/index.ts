// Library entry point: the pure core, for users who score inside their own training loop.
// The task entry points' types name Node's (Buffer, streams, http): the reference below makes a
// consumer's compiler load @types/node (a dependency of this package) whatever its `types` says.
/// <reference types="node" preserve="true" />
export { MARI_VERSION } from "./version.js";
export * from "./core/classifier/index.js";
export * from "./core/document/index.js";
export * from "./core/evidence/index.js";
export * from "./core/pairs/index.js";

// The tasks: what each command does, as functions that read inputs, write the report files and
// return the report; they print nothing and choose no exit code (the CLI does both).
export { evaluateDocuments, LEXICAL_DUMP_NAME, type DocumentEvalSettings } from "./tasks/document/evaluate.js";
export { runDocumentMerge as mergeDocumentShardReports, type DocumentMergeOptions } from "./tasks/document/merge.js";
export { runPairEval as evaluatePairs, classifierConfigFromFlags, type PairEvalOptions } from "./tasks/pairs/run.js";
export { classifyPairs, type ClassifyOutcome, type ClassifyPairsOptions, type ClassifyRejection } from "./tasks/pairs/classify.js";
export { runPairMerge as mergePairShardReports, type PairMergeOptions } from "./tasks/pairs/merge.js";
export { runSweep as sweepPairs, type SweepOptions, type SweepOutcome } from "./tasks/pairs/sweep.js";
export { runEvidence as evaluateEvidence, type EvidenceOptions } from "./tasks/evidence/run.js";
export { predictLexical, type LexicalPredictOutcome, type LexicalPredictSettings } from "./tasks/predict/lexical.js";
export { predictOpenAI, type OpenAIPredictOutcome, type OpenAIPredictSettings } from "./tasks/predict/live.js";
export {
  convertBatchResults,
  predictFromBatchResults,
  writePredictBatchRequests,
  type BatchRequestsOutcome,
  type BatchRequestsSettings,
  type BatchResultsOutcome,
  type BatchResultsSettings,
  type BatchResultsSummary,
} from "./tasks/predict/batch.js";
export type { JudgeSliceSettings } from "./tasks/predict/cases.js";
export { runEvidenceMerge as mergeEvidenceShardReports, type EvidenceMergeOptions } from "./tasks/evidence/merge.js";
export {
  trendReports,
  type TrendKeep,
  type TrendOutcome,
  type TrendPoint,
  type TrendResult,
  type TrendSeries,
  type TrendSettings,
} from "./tasks/trend/run.js";
export { renderTrendHtml, renderTrendJson, renderTrendMarkdown, writeTrendFiles } from "./tasks/trend/render.js";
export type { ReportOutcome } from "./tasks/outcome.js";
export type { Shard } from "./tasks/document/score-dump.js";
export { SILENT_OBSERVER, type Progress, type RunObserver } from "./io/observer.js";
export { InputError, located } from "./io/errors.js";
export { clearSliceCache, readDocumentSliceCached, sniffSliceTask, type DocumentSlice, type SentenceRule, type SliceReadOptions } from "./io/slice.js";
export { englishPunktParameters } from "./io/punkt-english.js";
export type { GateSpec } from "./gates/spec.js";
export { parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate } from "./gates/spec.js";
export { checkGates, decideGates } from "./gates/decide.js";
export { compareWithBaseline, loadBaseline, type Baseline } from "./gates/baseline.js";
export { caseReaderOf, readPairedOutcomes, readPairedSide, type CaseReader } from "./gates/side-reader.js";
export { readDocumentCases, type CaseItem } from "./report/document-cases.js";
export { pairedComparison, pairedSideComparison } from "./gates/paired.js";
export { PairedSide, pairedSide, type PairedOutcome } from "./gates/paired-side.js";
export type { Report } from "./report/types.js";
export { startRewardsServer, type RewardsServer, type RewardsServerOptions } from "./server/rewards-server.js";
