// `mari evidence DOCS --facts FACTS [--located FILE --materials FILE] [--current DOCS]` (docs/evidence.md):
// validates model citations against exactly what each model saw, writes cases.jsonl (facts) and
// located.jsonl (structured evidence) plus the report files, and maps the outcome onto exit codes.

import { oneRunEach } from "../../io/output-guard.js";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  DEFAULT_CLAIM_STATE_THRESHOLDS,
  documentLookup,
  EvidenceValueError,
  EVIDENCE_ISSUE_KINDS,
  sectionRevisions,
  type ClaimStateThresholds,
  type KnowledgeDocument,
} from "../../core/evidence/index.js";
import { wilsonConfidence } from "../../report/wilson-ci.js";
import { rate } from "../../core/metrics/ratio.js";
import { AtomicLineWriter } from "../../io/atomic-write.js";
import { InputError } from "../../io/errors.js";
import { inPhase, SILENT_OBSERVER, type Progress, type RunObserver } from "../../io/observer.js";
import type { ExplorerData } from "../../report/explorer.js";
import type { ReportOutcome } from "../outcome.js";
import { checkGates, decideGates, metricsOutline } from "../../gates/decide.js";
import { shardOfCaseId, type Shard } from "../document/score-dump.js";
import { logToJson, tallyToJson } from "./tally-merge.js";
import type { GateSpec } from "../../gates/spec.js";
import { sha256File } from "../../io/hashing.js";
import { listRejections, rejectionLine } from "../../report/format.js";
import { collectSystemInfo } from "../../report/system.js";
import { DEFAULT_REPORT_FORMATS, writeReportFiles } from "../../report/write.js";
import { EVIDENCE_EXPLORER, LOCATED_EXPLORER, RecordExplorerTally, recordExplorerOf } from "../record-explorer.js";
import { attachGiven, givenCitations, givenFacts } from "./explorer-input.js";
import { linesAt, LineBlocks } from "./case-lines.js";
import { exceedsDepth } from "../../io/depth.js";
import { MAX_JSON_DEPTH } from "../../core/limits.js";
import { readLineBatches, type Line } from "../../io/lines.js";
import type { JsonObject } from "../../io/records.js";
import { attachQuoteContext } from "./explorer-sections.js";
import { REPORT_SCHEMA_VERSION, type ConfidenceInterval, type MetricValue, type Report, type ReportFormat } from "../../report/types.js";
import { EvidenceTally } from "./tally.js";
import { factQualifiers, scoreFactsCase, type CurrentRevisions, type FactsCaseResult } from "./facts-score.js";
import { scoreLocatedCase, type Materials } from "./located-score.js";
import { FactsCaseLines, locatedCaseLine } from "./case-line-json.js";
import {
  assertReadable,
  caseIdOf,
  factsCaseFromRecord,
  FieldError,
  locatedCaseFromRecord,
  readDocuments,
  jsonlRecord,
  readMaterials,
  RejectionLog,
  type JsonlRecord,
} from "./input.js";
import { withoutStackTraces } from "../../core/expected-errors.js";

export interface EvidenceOptions {
  documents: string;
  facts?: string;
  located?: string;
  materials?: string;
  /** Documents at their present revisions: each case's dependencies are assessed against them. */
  current?: string;
  out?: string;
  formats?: readonly ReportFormat[];
  gates?: readonly GateSpec[];
  thresholds?: ClaimStateThresholds;
  strict?: boolean;
  /** Progress and rejected records (default: silent). */
  observer?: RunObserver;
  recordConfig?: Record<string, unknown>;
  /** Score only the cases whose id hashes to this shard (as documents); `mari merge` adds shard reports up. */
  shard?: Shard;
}

/** sha256 over the sorted (document_id, revision, content digest) lines: the document set's content. */
function documentSetHash(documents: readonly KnowledgeDocument[]): string {
  const lines = documents.map((d) => JSON.stringify([d.document_id, d.revision, d.content_digest])).sort();
  const hash = createHash("sha256");
  for (const line of lines) hash.update(`${line}\n`);
  return hash.digest("hex");
}

async function readCurrent(path: string, log: RejectionLog): Promise<CurrentRevisions> {
  const { documents, wheres } = await readDocuments(path, log);
  let lookup: Map<string, KnowledgeDocument>;
  try {
    lookup = documentLookup(documents);
  } catch (err) {
    if (err instanceof EvidenceValueError) {
      const at = (err as EvidenceValueError & { documentIndex?: number }).documentIndex;
      throw new InputError(`${(at !== undefined ? wheres[at] : undefined) ?? path}: ${err.message}`);
    }
    throw err;
  }
  return {
    documents: new Map([...lookup].map(([id, d]) => [id, d.revision])),
    sections: sectionRevisions([...lookup.values()]),
  };
}

export interface RunCounts {
  factsLines: number;
  locatedLines: number;
  documents: number;
  documentRecords: number;
}

function factsMetrics(tally: EvidenceTally): Record<string, MetricValue> {
  return {
    cases: tally.cases,
    accepted: tally.accepted,
    rejected: tally.cases - tally.accepted,
    accepted_rate: rate(tally.accepted, tally.cases),
    facts: tally.facts,
    citations: tally.citations,
    grounding_mean: rate(tally.groundingSum, tally.facts),
    claims_supported: tally.states.supported,
    claims_contradicted: tally.states.contradicted,
    claims_uncertain: tally.states.uncertain,
    claims_insufficient_evidence: tally.states.insufficient_evidence,
    claim_state_accuracy: tally.goldCompared === 0 ? null : tally.goldCorrect / tally.goldCompared,
    claim_state_gold: tally.goldCompared,
    dependencies: tally.dependencies.size,
    dependency_conflicts: tally.dependencyConflicts,
  };
}

function locatedMetrics(tally: EvidenceTally): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {
    located_cases: tally.locatedCases,
    located_accepted: tally.locatedAccepted,
    located_accepted_rate: rate(tally.locatedAccepted, tally.locatedCases),
    located_items: tally.locatedItems,
    located_valid_items: tally.locatedValid,
  };
  for (const kind of EVIDENCE_ISSUE_KINDS) metrics[`located_${kind}`] = tally.locatedIssues[kind];
  return metrics;
}

export function buildReport(
  options: EvidenceOptions,
  tally: EvidenceTally,
  log: RejectionLog,
  counts: RunCounts,
  extras: {
    system: Report["system"];
    documentsSha: string;
    documentsHash: string;
    predictionsPath: string;
    predictionsSha: string;
    elapsedSeconds: number;
  },
): Report {
  const metrics = {
    ...(options.facts !== undefined ? factsMetrics(tally) : {}),
    ...(options.located !== undefined ? locatedMetrics(tally) : {}),
  };
  const ci: Record<string, ConfidenceInterval> = {};
  if (options.facts !== undefined) {
    ci["accepted_rate"] = wilsonConfidence(tally.accepted, tally.cases);
    if (tally.goldCompared > 0) ci["claim_state_accuracy"] = wilsonConfidence(tally.goldCorrect, tally.goldCompared);
  }
  if (options.located !== undefined) ci["located_accepted_rate"] = wilsonConfidence(tally.locatedAccepted, tally.locatedCases);

  // Rejections: unreadable or invalid records, plus each failed case under its error code.
  const rejections: Record<string, number> = { ...log.counts };
  for (const [code, n] of Object.entries(tally.errors)) rejections[code] = (rejections[code] ?? 0) + n;
  for (const [code, n] of Object.entries(tally.locatedErrors)) rejections[code] = (rejections[code] ?? 0) + n;
  const caseExamples = [
    ...Object.entries(tally.errorExamples).flatMap(([code, list]) => list.map((ex) => ({ ...ex, kind: code }))),
    ...tally.locatedExamples.filter((ex) => Object.hasOwn(tally.locatedErrors, ex.kind)),
  ].map((ex) => ({ where: ex.where, reason: ex.kind, message: `case ${JSON.stringify(ex.case_id)}: ${ex.message}` }));

  const report: Report = {
    schema_version: REPORT_SCHEMA_VERSION,
    task: "evidence",
    dataset: { path: options.documents, sha256: extras.documentsSha, cases: tally.cases + tally.locatedCases, slice_hash: extras.documentsHash },
    predictions: {
      path: extras.predictionsPath,
      sha256: extras.predictionsSha,
      lines: options.facts !== undefined ? counts.factsLines : counts.locatedLines,
      runs: ["0"],
    },
    system: extras.system,
    metrics,
    runs: { "0": metrics },
    ci,
    gates: [],
    rejections,
    rejection_examples: [...log.examples, ...caseExamples],
    invalid: { count: tally.cases - tally.accepted + (tally.locatedCases - tally.locatedAccepted), total: tally.cases + tally.locatedCases },
    documents: { records: counts.documentRecords, usable: counts.documents },
    elapsed_seconds: extras.elapsedSeconds,
  };
  if (options.facts !== undefined) {
    report["errors"] = tally.errors;
    report["error_examples"] = tally.errorExamples;
    report["claim_states"] = tally.states;
    if (tally.goldCompared > 0) report["claim_state_confusion"] = tally.goldConfusion;
    report["dependencies"] = tally.dependencyList();
    report["dependency_conflicts"] = { count: tally.dependencyConflicts, examples: tally.dependencyConflictExamples };
    if (options.current !== undefined) report["freshness"] = tally.freshness;
  }
  if (options.located !== undefined) {
    report["located"] = {
      cases: tally.locatedCases,
      accepted: tally.locatedAccepted,
      items: tally.locatedItems,
      valid_items: tally.locatedValid,
      issues: tally.locatedIssues,
      errors: tally.locatedErrors,
      examples: tally.locatedExamples,
    };
  }
  return decideGates(report, options.gates ?? [], { partial: options.shard !== undefined });
}

/**
 * The cases of a JSONL file: `batches()` yields its lines a block at a time and `read` turns one
 * into a case, or null when it is rejected: unreadable lines and lines that fail `parse` (under
 * the FieldError's code), and a repeated case id (the first line is kept).
 */
class CaseReader<T extends { caseId: string }> {
  private readonly seen = new Set<string>();
  private readonly lineLog: RejectionLog;
  readonly counter = { lines: 0 };

  constructor(
    readonly path: string,
    readonly what: string,
    readonly log: RejectionLog,
    readonly parse: (item: JsonlRecord) => T,
    readonly shard?: Shard,
  ) {
    this.lineLog = this.ours(null) ? log : new RejectionLog();
  }

  // A shard scores the cases whose id hashes to it; a line with no usable case id is counted by
  // shard 0 only, so the shards' rejections add up to the single run's.
  private ours(caseId: string | null): boolean {
    const shard = this.shard;
    return shard === undefined || (caseId === null ? shard.index === 0 : shardOfCaseId(caseId, shard.count) === shard.index);
  }

  async *batches(): AsyncGenerator<Line[]> {
    await assertReadable(this.path, this.what);
    yield* readLineBatches(this.path);
  }

  read(line: Line): T | null {
    const item = jsonlRecord(this.path, line, this.lineLog, this.counter);
    if (item === null) return null;
    let input: T;
    try {
      input = this.parse(item);
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      if (this.ours(caseIdOrNull(item))) this.log.reject(item.where, err.code, err.message);
      return null;
    }
    if (!this.ours(input.caseId)) return null;
    if (this.seen.has(input.caseId)) {
      this.log.reject(item.where, "duplicate_case", `case ${JSON.stringify(input.caseId)} appeared on an earlier line; the first is kept`);
      return null;
    }
    this.seen.add(input.caseId);
    return input;
  }
}

function caseIdOrNull(item: JsonlRecord): string | null {
  try {
    return caseIdOf(item.record);
  } catch {
    return null;
  }
}

/**
 * Whether the case explorer, which reads cases.jsonl back with the readers' depth limit, can show
 * this line: only a fact's qualifiers (caller JSON, at depth 4 of the line: line, facts, fact,
 * qualifiers) can nest deeper than that.
 */
function explorable(result: FactsCaseResult): boolean {
  return result.facts.every((fact) => {
    const qualifiers = factQualifiers(fact);
    return qualifiers === null || !exceedsDepth(qualifiers, MAX_JSON_DEPTH - 3);
  });
}

/** Runs `mari evidence` end to end and writes its reports. Input errors throw InputError. */
export const runEvidence = oneRunEach(runEvidenceInRun);

/** What the steps of one run share: its settings, the rejection logs, the tally and the open outputs. */
interface EvidenceRun {
  readonly options: EvidenceOptions;
  readonly outDir: string;
  readonly thresholds: ClaimStateThresholds;
  readonly shard: Shard | undefined;
  readonly log: RejectionLog;
  /** Inputs every shard reads whole (documents, current, materials) count their rejections on shard 0. */
  readonly sharedLog: RejectionLog;
  readonly tally: EvidenceTally;
  /** A shard's per-case groundings, in input order (see scoreFactsFile). */
  readonly groundings: [number, number[]][];
  readonly counts: RunCounts;
  readonly writers: AtomicLineWriter[];
}

/** The documents of a run and, for each case, the ones it saw. */
interface DocumentSet {
  readonly documents: readonly KnowledgeDocument[];
  readonly versions: ReadonlyMap<string, KnowledgeDocument[]>;
  /** The documents a case saw: every version of each listed id (all documents when none are listed). */
  readonly lookupOf: (ids: readonly string[] | null) => ReadonlyMap<string, KnowledgeDocument> | readonly KnowledgeDocument[];
}

/** An output file's lines (offsets kept) and what the case explorer needs of those it can show. */
interface ScoredOutput {
  readonly lines: LineBlocks;
  readonly explorerTally: RecordExplorerTally;
  /** For each line the explorer can show, its index in the file. */
  readonly explorerLines: number[];
}

async function runEvidenceInRun(options: EvidenceOptions): Promise<ReportOutcome> {
  const started = process.hrtime.bigint();
  refuseBeforeReading(options);
  const log = new RejectionLog();
  const shard = options.shard;
  const run: EvidenceRun = {
    options,
    outDir: options.out ?? "mari-report",
    thresholds: options.thresholds ?? DEFAULT_CLAIM_STATE_THRESHOLDS,
    shard,
    log,
    sharedLog: shard !== undefined && shard.index !== 0 ? new RejectionLog() : log,
    tally: new EvidenceTally(),
    groundings: [],
    counts: { factsLines: 0, locatedLines: 0, documents: 0, documentRecords: 0 },
    writers: [],
  };
  const documentSet = await readDocumentSet(run);
  const current = options.current !== undefined ? await readCurrent(options.current, run.sharedLog) : null;
  const { facts, located } = await scoreCaseFiles(run, documentSet, current);
  await commitOutputs(run);
  // The last phase: the report built, the case explorer read back, the files written.
  const reporting = (options.observer ?? SILENT_OBSERVER).progress("report (steps)", 1);
  const report = await evidenceReport(run, documentSet.documents, started);
  const strictFailure = options.strict === true && log.total > 0;
  const inputErrors = strictFailure ? log.examples.map(rejectionLine) : [];
  const formats = options.formats ?? DEFAULT_REPORT_FORMATS;
  const explorer = formats.includes("html") ? await caseExplorer(run, facts, located, documentSet.documents) : undefined;
  const caseFiles = [
    ...(options.facts !== undefined ? [join(run.outDir, "cases.jsonl")] : []),
    ...(options.located !== undefined ? [join(run.outDir, "located.jsonl")] : []),
  ];
  const written = await writeReportFiles(run.outDir, report, formats, {
    inputErrors,
    caseFiles: caseFiles.map((path) => ({ path })),
    ...(explorer ? { explorer } : {}),
  });
  const files = [...caseFiles, ...written];
  reporting.tick();
  reporting.done();
  return { report, outDir: run.outDir, files, inputErrors: strictFailure ? [`--strict: ${log.total} rejected record(s)`] : [] };
}

/** Missing or inconsistent inputs, and gates that cannot hold on any report of these inputs, before anything is read. */
function refuseBeforeReading(options: EvidenceOptions): void {
  if (options.facts === undefined && options.located === undefined) throw new InputError("give --facts FILE, or --located FILE with --materials FILE");
  if (options.located !== undefined && options.materials === undefined) throw new InputError("--located needs --materials FILE");
  if (options.materials !== undefined && options.located === undefined) throw new InputError("--materials is only used with --located FILE");
  const empty = new EvidenceTally();
  const outline = metricsOutline("evidence", {
    ...(options.facts !== undefined ? factsMetrics(empty) : {}),
    ...(options.located !== undefined ? locatedMetrics(empty) : {}),
  });
  checkGates(outline, options.gates ?? [], { beforeRun: { baseline: false } });
}

async function readDocumentSet(run: EvidenceRun): Promise<DocumentSet> {
  const path = run.options.documents;
  const observer = run.options.observer ?? SILENT_OBSERVER;
  const { documents, records } = await inPhase(observer, "read documents (records)", undefined, async (reading) => {
    const read = await readDocuments(path, run.sharedLog);
    reading.tick(read.records);
    return read;
  });
  if (documents.length === 0) {
    // The rejection log is only printed after a run; name each record's problem here (file:line).
    const why = run.sharedLog.examples
      .slice(0, 10)
      .map((ex) => `\n  ${ex.where}: ${ex.reason}: ${ex.message}`)
      .join("");
    throw new InputError(`${path}: no usable document (${records} records)${why}`);
  }
  run.counts.documents = documents.length;
  run.counts.documentRecords = records;
  const versions = new Map<string, KnowledgeDocument[]>();
  for (const document of documents) {
    const list = versions.get(document.document_id);
    if (list) list.push(document);
    else versions.set(document.document_id, [document]);
  }
  // Cases that saw every document share one lookup; if two versions of an id conflict, each such
  // case fails with the reference's error instead (parseFacts builds the lookup itself).
  let allLookup: ReadonlyMap<string, KnowledgeDocument> | readonly KnowledgeDocument[];
  try {
    allLookup = documentLookup(documents);
  } catch (err) {
    if (!(err instanceof EvidenceValueError)) throw err;
    allLookup = documents;
  }
  const lookupOf = (ids: readonly string[] | null): ReadonlyMap<string, KnowledgeDocument> | readonly KnowledgeDocument[] => {
    if (ids === null) return allLookup;
    // With one version of each id the lookup is built here, as documentLookup would build it
    // (first listing first; an id listed twice is one document).
    const lookup = new Map<string, KnowledgeDocument>();
    for (const id of ids) {
      const list = versions.get(id);
      if (list === undefined) continue;
      if (list.length > 1) return ids.flatMap((listed) => versions.get(listed) ?? []);
      lookup.set(id, list[0]!);
    }
    return lookup;
  };
  return { documents, versions, lookupOf };
}

/** Scores the facts file, then the located file (each when given); on any error the outputs are dropped. */
async function scoreCaseFiles(
  run: EvidenceRun,
  documentSet: DocumentSet,
  current: CurrentRevisions | null,
): Promise<{ facts: ScoredOutput | undefined; located: ScoredOutput | undefined }> {
  const progress = (run.options.observer ?? SILENT_OBSERVER).progress("evidence (cases)");
  try {
    const facts = run.options.facts !== undefined ? await scoreFactsFile(run, run.options.facts, documentSet, current, progress) : undefined;
    const located = run.options.located !== undefined ? await scoreLocatedFile(run, run.options.located, progress) : undefined;
    progress.done();
    return { facts, located };
  } catch (err) {
    progress.done(false);
    for (const writer of run.writers) await writer.abort();
    throw err;
  }
}

/** An output file of the run, opened for atomic writing and aborted with the others on failure. */
async function openOutput(run: EvidenceRun, name: string): Promise<ScoredOutput> {
  const file = await AtomicLineWriter.open(join(run.outDir, name));
  run.writers.push(file);
  return {
    lines: new LineBlocks(file),
    explorerTally: new RecordExplorerTally(name === "cases.jsonl" ? EVIDENCE_EXPLORER : LOCATED_EXPLORER),
    explorerLines: [],
  };
}

async function scoreFactsFile(
  run: EvidenceRun,
  path: string,
  documentSet: DocumentSet,
  current: CurrentRevisions | null,
  progress: Progress,
): Promise<ScoredOutput> {
  const output = await openOutput(run, "cases.jsonl");
  const caseLines = new FactsCaseLines();
  const reader = new CaseReader(path, "facts", run.log, (item) => factsCaseFromRecord(item, documentSet.versions), run.shard);
  for await (const lines of reader.batches()) {
    for (const line of lines) {
      const input = reader.read(line);
      if (input === null) continue;
      const result = withoutStackTraces(() => scoreFactsCase(input, documentSet.lookupOf(input.documents), run.thresholds, current));
      run.tally.addFacts(result);
      // A shard keeps each case's groundings so that the merge re-adds them in input order
      // (floating-point sums depend on order; the merged grounding_mean must be the single run's).
      if (run.shard !== undefined && result.facts.length > 0) run.groundings.push([input.line, result.facts.map((fact) => fact.grounding)]);
      progress.tick();
      if (explorable(result)) {
        output.explorerTally.add(explorerFields(result), result.caseId);
        output.explorerLines.push(output.lines.starts.length);
      }
      const full = caseLines.write(result, input.line, output.lines);
      if (full !== undefined) await full;
    }
  }
  await output.lines.flush();
  run.counts.factsLines = reader.counter.lines;
  return output;
}

/** The fields of a facts case's line that the explorer's failure test, tags and facets read. */
function explorerFields(result: FactsCaseResult): JsonObject {
  return {
    accepted: result.accepted,
    error: result.error === null ? null : { code: result.error.code },
    facts: result.facts.map((fact) => ({ state: fact.state })),
    ...(result.gold.length > 0 ? { gold: result.gold as unknown as JsonObject[] } : {}),
    ...(result.freshness !== null ? { freshness: result.freshness } : {}),
  };
}

async function scoreLocatedFile(run: EvidenceRun, path: string, progress: Progress): Promise<ScoredOutput> {
  const materials: Materials = await readMaterials(run.options.materials!, run.sharedLog);
  const output = await openOutput(run, "located.jsonl");
  const reader = new CaseReader(path, "located evidence", run.log, locatedCaseFromRecord, run.shard);
  for await (const lines of reader.batches()) {
    for (const line of lines) {
      const input = reader.read(line);
      if (input === null) continue;
      const result = withoutStackTraces(() => scoreLocatedCase(input, materials));
      run.tally.addLocated(result);
      progress.tick();
      const text = locatedCaseLine(result, input.line);
      if (run.options.facts === undefined) {
        // The explorer shows located cases when there are no facts cases.
        output.explorerTally.add(JSON.parse(text) as JsonObject, result.caseId);
        output.explorerLines.push(output.lines.starts.length);
      }
      const full = output.lines.push(text);
      if (full !== undefined) await full;
    }
  }
  await output.lines.flush();
  run.counts.locatedLines = reader.counter.lines;
  return output;
}

/** Lists the rejections, then keeps the output files, unless there was no case at all. */
async function commitOutputs(run: EvidenceRun): Promise<void> {
  const observer = run.options.observer ?? SILENT_OBSERVER;
  for (const line of listRejections(run.log.examples, run.log.total)) observer.log(line);
  // A shard may hold no case (small inputs over many shards); the merged report is what counts.
  if (run.tally.cases + run.tally.locatedCases === 0 && run.shard === undefined) {
    for (const writer of run.writers) await writer.abort();
    throw new InputError(`no case to score (${run.log.total} rejected records)`);
  }
  for (const writer of run.writers) await writer.commit();
}

async function evidenceReport(run: EvidenceRun, documents: readonly KnowledgeDocument[], started: bigint): Promise<Report> {
  const { options, shard } = run;
  const system = await collectSystemInfo({
    config: {
      task: "evidence",
      recipe: "facts-extract-v3",
      claim_state_thresholds: run.thresholds,
      facts: options.facts ?? null,
      located: options.located ?? null,
      materials: options.materials ?? null,
      current: options.current ?? null,
      ...(options.recordConfig ?? {}),
      shard: shard ? `${shard.index}/${shard.count}` : null,
    },
    seed: 0,
    workers: 1,
  });
  const predictionsPath = options.facts ?? options.located!;
  const report = buildReport(options, run.tally, run.log, run.counts, {
    system,
    documentsSha: await sha256File(options.documents),
    documentsHash: documentSetHash(documents),
    predictionsPath,
    predictionsSha: await sha256File(predictionsPath),
    elapsedSeconds: Number(process.hrtime.bigint() - started) / 1e9,
  });
  if (shard !== undefined) {
    report.shard = {
      index: shard.index,
      count: shard.count,
      tally: tallyToJson(run.tally),
      log: logToJson(run.log),
      counts: run.counts,
      groundings: run.groundings,
    };
  }
  return report;
}

/** The case explorer of report.html: the facts cases (cases.jsonl), or else the located ones (located.jsonl). */
async function caseExplorer(
  run: EvidenceRun,
  facts: ScoredOutput | undefined,
  located: ScoredOutput | undefined,
  documents: readonly KnowledgeDocument[],
): Promise<ExplorerData | undefined> {
  const shown =
    facts !== undefined
      ? { spec: EVIDENCE_EXPLORER, output: facts, file: "cases.jsonl", input: run.options.facts!, given: givenFacts }
      : located !== undefined
        ? { spec: LOCATED_EXPLORER, output: located, file: "located.jsonl", input: run.options.located!, given: givenCitations }
        : undefined;
  if (shown === undefined) return undefined;
  const { lines, explorerTally, explorerLines } = shown.output;
  const explorer = await recordExplorerOf(shown.spec, explorerTally, { seed: 0, rest: `${shown.file} beside this page` }, (chosen) =>
    linesAt(
      join(run.outDir, shown.file),
      lines.starts,
      lines.bytes,
      [...chosen].map((k) => explorerLines[k]!),
    ),
  );
  attachQuoteContext(explorer, documents);
  // A rejected facts case has no scored facts: its claims and quotes as given. Located: every case's citations.
  await attachGiven(explorer, shown.input, (record) => shown.spec === LOCATED_EXPLORER || record["accepted"] !== true, shown.given);
  return explorer;
}
