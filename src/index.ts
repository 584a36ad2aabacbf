// The library's entry point: what a user of mari needs, each name exported once, from the module
// that defines it, under the name it has there (docs/library.md lists them). Building blocks that
// only mari's own commands use stay unexported; a test (test/library-api.test.ts) holds this list.
// The task entry points' types name Node's (Buffer, streams, http): the reference below makes a
// consumer's compiler load @types/node (a dependency of this package) whatever its `types` says.
/// <reference types="node" preserve="true" />
export { MARI_VERSION } from "./version.js";

// Documents: sentences, validation of one prediction, its rewards (docs/core-document.md).
export { alignEvidence, jaccardTokens, splitSentences, tagSentences, tokenJaccard } from "./core/document/sentences.js";
export { parsePunktParameters, punktSpans, splitSentencesPunkt, type PunktParameters, type PunktParameterTexts } from "./core/document/punkt.js";
export { englishPunktParameters } from "./io/punkt-english.js";
export { parseReasoningReferences } from "./core/document/references.js";
export { validateDocumentContradiction, type DocumentContradictionAssessment } from "./core/document/validation.js";
export { documentContradictionRewards, type DocumentContradictionRewards } from "./core/document/rewards.js";
export {
  DOCUMENT_CONTRADICTION_ERROR_MESSAGES,
  DocumentContradictionError,
  type DocumentContradictionErrorCode,
} from "./core/document/errors.js";
export { completionAsWritten, END_MARKERS, type CompletionEndRule } from "./core/document/completion-end.js";

// Python semantics the reference relies on, for reproducing its numbers outside mari.
export { PYTHON_WHITESPACE, stripPythonWhitespace } from "./core/python/whitespace.js";
export { pythonTruthy } from "./core/python/truthiness.js";
export { decimalDigitValue } from "./core/python/decimal-digits.js";
export {
  codePointLength,
  codePointOffset,
  compareCodePoints,
  containsCodePoints,
  findCodePoints,
  pythonCasefold,
  roundHalfEven,
  sliceCodePoints,
  wordTokens,
} from "./core/python/text.js";
export { parsePythonInt, PyFloat, pythonRepr, pythonStr } from "./core/python/values.js";
export { JsonSyntaxError, parsePythonJson, toPlainJson } from "./core/python/json.js";

// The memory-revision classifier (docs/classifier.md).
export { classify } from "./core/classifier/index.js";
export {
  type ClassifierConfig,
  ClassifierConfigError,
  CONFIG_KEYS,
  DEFAULT_CONFIG,
  parseConfigAssignments,
  validateClassifierConfig,
} from "./core/classifier/config.js";
export { classifyFeatures, formatFixed2, type RevisionClass, type Verdict } from "./core/classifier/decide.js";
export { extractFeatures, type TextFeatures } from "./core/classifier/features.js";
export { extractEntities } from "./core/classifier/entities.js";
export { normalizeWord } from "./core/classifier/normalize-word.js";

// Memory-revision pairs: records, tallies, metrics and RevisionCost (docs/pairs.md).
export { PAIR_CLASSES } from "./core/pairs/classes.js";
export { parsePairRecord, type PairParse, type PairRecord, type PairRejection } from "./core/pairs/input.js";
export { addPair, type Confusion, emptyTally, type PairTally } from "./core/pairs/tally.js";
export {
  classScores,
  type ClassScores,
  pairMetrics,
  pairMetricsByKind,
  revisionCostDetail,
  type RevisionCostCell,
  type RevisionCostDetail,
} from "./core/pairs/metrics.js";
export { costMatrix, type CostMatrix, CostsError, DEFAULT_UNIT_PRICES, parseUnitPrices, totalCost, type UnitPrices } from "./core/pairs/costs.js";
export { DEFAULT_PAIR_GATES, type PairGateDefault } from "./core/pairs/gates.js";

// Evidence contracts (docs/evidence.md).
export { EvidenceValueError, type FactsErrorCode, MalformedModelOutput } from "./core/evidence/errors.js";
export { sha256OfText } from "./core/evidence/sha256.js";
export {
  contentDigest,
  documentId,
  documentRef,
  knowledgeDocument,
  type KnowledgeDocument,
  type KnowledgeDocumentInput,
  parseDocumentId,
  percentEncodeIdPart,
} from "./core/evidence/documents.js";
export { bodySections, type DocumentSection, documentSections, sectionKey, sectionRevisions, sectionSlug } from "./core/evidence/sections.js";
export { type CitedQuote, groundingCoverage } from "./core/evidence/grounding.js";
export {
  documentLookup,
  evidence,
  type Evidence,
  type FactCandidate,
  normalizeClaim,
  parseFacts,
  type ParseFactsOptions,
} from "./core/evidence/facts.js";
export {
  jsonPointer,
  type JsonPointer,
  keyId,
  type Locator,
  mediaTimeRange,
  type MediaTimeRange,
  objectRef,
  type ObjectRef,
  objectRefKey,
  pageRegion,
  type PageRegion,
  recordField,
  type RecordField,
  revisionRef,
  type RevisionRef,
  revisionRefKey,
  scopeKey,
  scopeRef,
  type ScopeRef,
  tableCell,
  type TableCell,
  textSpan,
  type TextSpan,
} from "./core/evidence/refs.js";
export {
  artifactEvidence,
  type ArtifactEvidence,
  artifactRef,
  type ArtifactRef,
  artifactRefKey,
  artifactToRevisionRef,
  documentEvidenceRef,
  validateArtifactEvidence,
  type ValidateArtifactOptions,
} from "./core/evidence/artifacts.js";
export { defaultLocate, LocateError, type LocateErrorKind, type LocateFunction } from "./core/evidence/locate.js";
export {
  type EvidenceIssue,
  type EvidenceIssueKind,
  type EvidenceReport,
  type ItemFinding,
  locatedEvidence,
  type LocatedEvidence,
  validateLocatedEvidence,
  type ValidateLocatedOptions,
} from "./core/evidence/located.js";
export {
  assessDependencies,
  assessFreshness,
  assessRevisionRefs,
  type DependencyAssessment,
  dependencyId,
  type DependencyStatus,
  evidenceDependencies,
  impactedArtifacts,
  knowledgeDependency,
  type KnowledgeDependency,
  type RevisionChange,
  type RevisionRefStatus,
} from "./core/evidence/dependencies.js";
export {
  CLAIM_STATES,
  claimState,
  type ClaimState,
  type ClaimStateThresholds,
  DEFAULT_CLAIM_STATE_THRESHOLDS,
  type SpanJudgment,
} from "./core/evidence/claim-state.js";

// The commands as functions: each reads its inputs, writes the report files and returns the
// report; none prints anything or chooses an exit code (the CLI does both).
export { evaluateDocuments, LEXICAL_DUMP_NAME, type DocumentEvalSettings } from "./tasks/document/evaluate.js";
export { type DocumentMergeOptions, runDocumentMerge } from "./tasks/document/merge.js";
export { classifierConfigFromFlags, type PairEvalOptions, runPairEval } from "./tasks/pairs/run.js";
export { type PairMergeOptions, runPairMerge } from "./tasks/pairs/merge.js";
export { runSweep, type SweepOptions, type SweepOutcome } from "./tasks/pairs/sweep.js";
export { type ClassifyOutcome, classifyPairs, type ClassifyPairsOptions, type ClassifyRejection } from "./tasks/pairs/classify.js";
export { type EvidenceOptions, runEvidence } from "./tasks/evidence/run.js";
export { type EvidenceMergeOptions, runEvidenceMerge } from "./tasks/evidence/merge.js";
export { type LexicalPredictOutcome, type LexicalPredictSettings, predictLexical } from "./tasks/predict/lexical.js";
export { type OpenAIPredictOutcome, type OpenAIPredictSettings, predictOpenAI } from "./tasks/predict/live.js";
export {
  type BatchRequestsOutcome,
  type BatchRequestsSettings,
  type BatchResultsOutcome,
  type BatchResultsSettings,
  type BatchResultsSummary,
  convertBatchResults,
  predictFromBatchResults,
  writePredictBatchRequests,
} from "./tasks/predict/batch.js";
export type { JudgeSliceSettings } from "./tasks/predict/cases.js";
export {
  type TrendKeep,
  type TrendOutcome,
  type TrendPoint,
  trendReports,
  type TrendResult,
  type TrendSeries,
  type TrendSettings,
} from "./tasks/trend/run.js";
export { renderTrendHtml, renderTrendJson, renderTrendMarkdown, writeTrendFiles } from "./tasks/trend/render.js";
export { startRewardsServer, type RewardsServer, type RewardsServerOptions } from "./server/rewards-server.js";
export type { ReportOutcome } from "./tasks/outcome.js";
export type { Shard } from "./tasks/document/score-dump.js";
export type { Report } from "./report/types.js";
export { type CaseItem, readDocumentCases } from "./report/document-cases.js";

// What the task functions take and give: gates, slices, progress, input errors.
export { type GateSpec, parseGateFlag, parseMaxDropFlag, parseMaxInvalidRate } from "./gates/spec.js";
export { readDocumentSliceCached, sniffSliceTask } from "./io/slice.js";
export { clearSliceCache, type DocumentSlice, type SentenceRule, type SliceReadOptions } from "./io/slice-kept.js";
export { type Progress, type RunObserver, SILENT_OBSERVER } from "./io/observer.js";
export { InputError } from "./io/errors.js";
