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
import { inPhase, SILENT_OBSERVER, type RunObserver } from "../../io/observer.js";
import type { ReportOutcome } from "../outcome.js";
import { checkGates, decideGates, metricsOutline } from "../../gates/decide.js";
import { shardOfCaseId, type Shard } from "../document/run.js";
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
import {
  EvidenceTally,
  factQualifiers,
  FactsCaseLines,
  locatedCaseLine,
  scoreFactsCase,
  scoreLocatedCase,
  type CurrentRevisions,
  type FactsCaseResult,
  type Materials,
} from "./score.js";
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

function factsMetrics(t: EvidenceTally): Record<string, MetricValue> {
  return {
    cases: t.cases,
    accepted: t.accepted,
    rejected: t.cases - t.accepted,
    accepted_rate: rate(t.accepted, t.cases),
    facts: t.facts,
    citations: t.citations,
    grounding_mean: rate(t.groundingSum, t.facts),
    claims_supported: t.states.supported,
    claims_contradicted: t.states.contradicted,
    claims_uncertain: t.states.uncertain,
    claims_insufficient_evidence: t.states.insufficient_evidence,
    claim_state_accuracy: t.goldCompared === 0 ? null : t.goldCorrect / t.goldCompared,
    claim_state_gold: t.goldCompared,
    dependencies: t.dependencies.size,
    dependency_conflicts: t.dependencyConflicts,
  };
}

function locatedMetrics(t: EvidenceTally): Record<string, MetricValue> {
  const metrics: Record<string, MetricValue> = {
    located_cases: t.locatedCases,
    located_accepted: t.locatedAccepted,
    located_accepted_rate: rate(t.locatedAccepted, t.locatedCases),
    located_items: t.locatedItems,
    located_valid_items: t.locatedValid,
  };
  for (const kind of EVIDENCE_ISSUE_KINDS) metrics[`located_${kind}`] = t.locatedIssues[kind];
  return metrics;
}

export function buildReport(
  options: EvidenceOptions,
  t: EvidenceTally,
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
    ...(options.facts !== undefined ? factsMetrics(t) : {}),
    ...(options.located !== undefined ? locatedMetrics(t) : {}),
  };
  const ci: Record<string, ConfidenceInterval> = {};
  if (options.facts !== undefined) {
    ci["accepted_rate"] = wilsonConfidence(t.accepted, t.cases);
    if (t.goldCompared > 0) ci["claim_state_accuracy"] = wilsonConfidence(t.goldCorrect, t.goldCompared);
  }
  if (options.located !== undefined) ci["located_accepted_rate"] = wilsonConfidence(t.locatedAccepted, t.locatedCases);

  // Rejections: unreadable or invalid records, plus each failed case under its error code.
  const rejections: Record<string, number> = { ...log.counts };
  for (const [code, n] of Object.entries(t.errors)) rejections[code] = (rejections[code] ?? 0) + n;
  for (const [code, n] of Object.entries(t.locatedErrors)) rejections[code] = (rejections[code] ?? 0) + n;
  const caseExamples = [
    ...Object.entries(t.errorExamples).flatMap(([code, list]) => list.map((ex) => ({ ...ex, kind: code }))),
    ...t.locatedExamples.filter((ex) => Object.hasOwn(t.locatedErrors, ex.kind)),
  ].map((ex) => ({ where: ex.where, reason: ex.kind, message: `case ${JSON.stringify(ex.case_id)}: ${ex.message}` }));

  const report: Report = {
    schema_version: REPORT_SCHEMA_VERSION,
    task: "evidence",
    dataset: { path: options.documents, sha256: extras.documentsSha, cases: t.cases + t.locatedCases, slice_hash: extras.documentsHash },
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
    invalid: { count: t.cases - t.accepted + (t.locatedCases - t.locatedAccepted), total: t.cases + t.locatedCases },
    documents: { records: counts.documentRecords, usable: counts.documents },
    elapsed_seconds: extras.elapsedSeconds,
  };
  if (options.facts !== undefined) {
    report["errors"] = t.errors;
    report["error_examples"] = t.errorExamples;
    report["claim_states"] = t.states;
    if (t.goldCompared > 0) report["claim_state_confusion"] = t.goldConfusion;
    report["dependencies"] = t.dependencyList();
    report["dependency_conflicts"] = { count: t.dependencyConflicts, examples: t.dependencyConflictExamples };
    if (options.current !== undefined) report["freshness"] = t.freshness;
  }
  if (options.located !== undefined) {
    report["located"] = {
      cases: t.locatedCases,
      accepted: t.locatedAccepted,
      items: t.locatedItems,
      valid_items: t.locatedValid,
      issues: t.locatedIssues,
      errors: t.locatedErrors,
      examples: t.locatedExamples,
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

async function runEvidenceInRun(options: EvidenceOptions): Promise<ReportOutcome> {
  const started = process.hrtime.bigint();
  const observer = options.observer ?? SILENT_OBSERVER;
  const outDir = options.out ?? "mari-report";
  if (options.facts === undefined && options.located === undefined) throw new InputError("give --facts FILE, or --located FILE with --materials FILE");
  if (options.located !== undefined && options.materials === undefined) throw new InputError("--located needs --materials FILE");
  if (options.materials !== undefined && options.located === undefined) throw new InputError("--materials is only used with --located FILE");
  // A gate that cannot hold on any report of these inputs is refused before they are read.
  const empty = new EvidenceTally();
  const outline = metricsOutline("evidence", {
    ...(options.facts !== undefined ? factsMetrics(empty) : {}),
    ...(options.located !== undefined ? locatedMetrics(empty) : {}),
  });
  checkGates(outline, options.gates ?? [], { beforeRun: { baseline: false } });
  const thresholds = options.thresholds ?? DEFAULT_CLAIM_STATE_THRESHOLDS;
  const log = new RejectionLog();
  const tally = new EvidenceTally();
  const shard = options.shard;
  // Inputs every shard reads whole (documents, current, materials) count their rejections on shard 0.
  const sharedLog = shard !== undefined && shard.index !== 0 ? new RejectionLog() : log;
  const groundings: [number, number[]][] = [];

  const { documents, records: documentRecords } = await inPhase(observer, "read documents (records)", undefined, async (reading) => {
    const read = await readDocuments(options.documents, sharedLog);
    reading.tick(read.records);
    return read;
  });
  if (documents.length === 0) {
    // The rejection log is only printed after a run; name each record's problem here (file:line).
    const why = sharedLog.examples
      .slice(0, 10)
      .map((ex) => `\n  ${ex.where}: ${ex.reason}: ${ex.message}`)
      .join("");
    throw new InputError(`${options.documents}: no usable document (${documentRecords} records)${why}`);
  }
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
  // The documents a case saw: every version of each listed id (all documents when none are listed).
  const lookupOf = (ids: readonly string[] | null): ReadonlyMap<string, KnowledgeDocument> | readonly KnowledgeDocument[] => {
    if (ids === null) return allLookup;
    const seen: KnowledgeDocument[] = [];
    for (const id of ids) for (const document of versions.get(id) ?? []) seen.push(document);
    return seen;
  };
  const current = options.current !== undefined ? await readCurrent(options.current, sharedLog) : null;
  const counts: RunCounts = { factsLines: 0, locatedLines: 0, documents: documents.length, documentRecords };

  const progress = observer.progress("evidence (cases)");
  const writers: AtomicLineWriter[] = [];
  // For the case explorer: each cases.jsonl line's failure flag and index, for the lines it can show.
  const explorerTally = new RecordExplorerTally(EVIDENCE_EXPLORER);
  const explorerLines: number[] = [];
  let casesLines: LineBlocks | undefined;
  const locatedTally = new RecordExplorerTally(LOCATED_EXPLORER);
  let locatedLines: LineBlocks | undefined;
  try {
    if (options.facts !== undefined) {
      const casesFile = await AtomicLineWriter.open(join(outDir, "cases.jsonl"));
      writers.push(casesFile);
      const cases = (casesLines = new LineBlocks(casesFile));
      const caseLines = new FactsCaseLines();
      const reader = new CaseReader(options.facts, "facts", log, (item) => factsCaseFromRecord(item, versions), shard);
      for await (const lines of reader.batches()) {
        for (const line of lines) {
          const input = reader.read(line);
          if (input === null) continue;
          const result = withoutStackTraces(() => scoreFactsCase(input, lookupOf(input.documents), thresholds, current));
          tally.addFacts(result);
          // A shard keeps each case's groundings so that the merge re-adds them in input order
          // (floating-point sums depend on order; the merged grounding_mean must be the single run's).
          if (shard !== undefined && result.facts.length > 0) groundings.push([input.line, result.facts.map((fact) => fact.grounding)]);
          progress.tick();
          if (explorable(result)) {
            // The line's fields the explorer's failure test, tags and facets read.
            explorerTally.add(
              {
                accepted: result.accepted,
                error: result.error === null ? null : { code: result.error.code },
                facts: result.facts.map((fact) => ({ state: fact.state })),
                ...(result.gold.length > 0 ? { gold: result.gold as unknown as JsonObject[] } : {}),
                ...(result.freshness !== null ? { freshness: result.freshness } : {}),
              },
              result.caseId,
            );
            explorerLines.push(cases.starts.length);
          }
          const full = cases.push(caseLines.line(result, input.line));
          if (full !== undefined) await full;
        }
      }
      await cases.flush();
      counts.factsLines = reader.counter.lines;
    }
    if (options.located !== undefined) {
      const materials: Materials = await readMaterials(options.materials!, sharedLog);
      const outFile = await AtomicLineWriter.open(join(outDir, "located.jsonl"));
      writers.push(outFile);
      const out = (locatedLines = new LineBlocks(outFile));
      const reader = new CaseReader(options.located, "located evidence", log, locatedCaseFromRecord, shard);
      for await (const lines of reader.batches()) {
        for (const line of lines) {
          const input = reader.read(line);
          if (input === null) continue;
          const result = withoutStackTraces(() => scoreLocatedCase(input, materials));
          tally.addLocated(result);
          progress.tick();
          const text = locatedCaseLine(result, input.line);
          if (options.facts === undefined) {
            // The explorer shows located cases when there are no facts cases.
            locatedTally.add(JSON.parse(text) as JsonObject, result.caseId);
            explorerLines.push(out.starts.length);
          }
          const full = out.push(text);
          if (full !== undefined) await full;
        }
      }
      await out.flush();
      counts.locatedLines = reader.counter.lines;
    }
  } catch (err) {
    progress.done(false);
    for (const writer of writers) await writer.abort();
    throw err;
  }
  progress.done();

  for (const line of listRejections(log.examples, log.total)) observer.log(line);
  // A shard may hold no case (small inputs over many shards); the merged report is what counts.
  if (tally.cases + tally.locatedCases === 0 && shard === undefined) {
    for (const writer of writers) await writer.abort();
    throw new InputError(`no case to score (${log.total} rejected records)`);
  }
  for (const writer of writers) await writer.commit();
  // The last phase: the report built, the case explorer read back, the files written.
  const reporting = observer.progress("report (steps)", 1);

  const system = await collectSystemInfo({
    config: {
      task: "evidence",
      recipe: "facts-extract-v3",
      claim_state_thresholds: thresholds,
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
  const report = buildReport(options, tally, log, counts, {
    system,
    documentsSha: await sha256File(options.documents),
    documentsHash: documentSetHash(documents),
    predictionsPath,
    predictionsSha: await sha256File(predictionsPath),
    elapsedSeconds: Number(process.hrtime.bigint() - started) / 1e9,
  });
  if (shard !== undefined) report.shard = { index: shard.index, count: shard.count, tally: tallyToJson(tally), log: logToJson(log), counts, groundings };
  const strictFailure = options.strict === true && log.total > 0;
  const inputErrors = strictFailure ? log.examples.map(rejectionLine) : [];
  const formats = options.formats ?? DEFAULT_REPORT_FORMATS;
  // The explorer shows the facts cases (cases.jsonl), or else the located ones (located.jsonl).
  const shown =
    casesLines !== undefined
      ? { spec: EVIDENCE_EXPLORER, tally: explorerTally, lines: casesLines, file: "cases.jsonl", input: options.facts!, given: givenFacts }
      : locatedLines !== undefined
        ? { spec: LOCATED_EXPLORER, tally: locatedTally, lines: locatedLines, file: "located.jsonl", input: options.located!, given: givenCitations }
        : undefined;
  const explorer =
    formats.includes("html") && shown !== undefined
      ? await recordExplorerOf(shown.spec, shown.tally, { seed: 0, rest: `${shown.file} beside this page` }, (chosen) =>
          linesAt(
            join(outDir, shown.file),
            shown.lines.starts,
            shown.lines.bytes,
            [...chosen].map((k) => explorerLines[k]!),
          ),
        )
      : undefined;
  if (explorer && shown) {
    attachQuoteContext(explorer, documents);
    // A rejected facts case has no scored facts: its claims and quotes as given. Located: every case's citations.
    await attachGiven(explorer, shown.input, (record) => shown.spec === LOCATED_EXPLORER || record["accepted"] !== true, shown.given);
  }
  const written = await writeReportFiles(outDir, report, formats, { inputErrors, ...(explorer ? { explorer } : {}) });
  const files = [
    ...(options.facts !== undefined ? [join(outDir, "cases.jsonl")] : []),
    ...(options.located !== undefined ? [join(outDir, "located.jsonl")] : []),
    ...written,
  ];
  reporting.tick();
  reporting.done();
  return { report, outDir, files, inputErrors: strictFailure ? [`--strict: ${log.total} rejected record(s)`] : [] };
}
