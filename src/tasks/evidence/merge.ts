// `mari merge` for evidence shards (`mari evidence … --shard I/N`): adds up the shards' tallies and
// rejection logs (tally-merge.ts), puts cases.jsonl and located.jsonl back in input-line order, and
// builds, decides and writes the report with the same code as a single run.
import { oneRunEach } from "../../io/output-guard.js";
import { dirname, join } from "node:path";
import { shardGateSpecs } from "../../gates/decide.js";
import { combineGates, type GateSpec } from "../../gates/spec.js";
import { AtomicLineWriter } from "../../io/atomic-write.js";
import { InputError, located } from "../../io/errors.js";
import { checkCasesDigest, type CaseFileName } from "../../report/cases-digest.js";
import { canonicalJson, sha256Text } from "../../io/hashing.js";
import { readLines } from "../../io/lines.js";
import type { Report, ReportFormat } from "../../report/types.js";
import { DEFAULT_REPORT_FORMATS, writeReportFiles } from "../../report/write.js";
import type { ReportOutcome } from "../outcome.js";
import { readShardReports } from "../shard-reports.js";
import { buildReport, type EvidenceOptions, type RunCounts } from "./run.js";
import { mergeLogs, mergeTallies, type LogJson, type TallyJson } from "./tally-merge.js";

interface EvidenceShard {
  index: number;
  count: number;
  tally: TallyJson;
  log: LogJson;
  counts: RunCounts;
  groundings: [number, number[]][];
}

export interface EvidenceMergeOptions {
  reportPaths: string[];
  outDir: string;
  formats?: readonly ReportFormat[];
  /** Gates given to the merge (flags, then config); they win over the shards' recorded gates. */
  gates?: readonly GateSpec[];
}

/**
 * The per-case lines of every shard (each carries its input `line`), back in input order; each
 * shard's file is first checked against the digest its report records of it.
 */
async function mergeCaseLines(reportPaths: readonly string[], reports: readonly Report[], name: CaseFileName, outDir: string): Promise<string> {
  const rows: { line: number; text: string }[] = [];
  for (const [k, reportPath] of reportPaths.entries()) {
    const path = join(dirname(reportPath), name);
    await checkCasesDigest(reportPath, reports[k]!, path);
    try {
      for await (const line of readLines(path)) {
        if (line.text === null || line.text.trim() === "") continue;
        const parsed = JSON.parse(line.text) as { line?: unknown };
        if (typeof parsed.line !== "number") throw new Error(`line ${line.lineNo} has no input line number`);
        rows.push({ line: parsed.line, text: line.text });
      }
    } catch (err) {
      throw new InputError(located(path, undefined, `cannot read the shard's ${name}: ${(err as Error).message}`));
    }
  }
  rows.sort((a, b) => a.line - b.line);
  const target = join(outDir, name);
  const writer = await AtomicLineWriter.open(target);
  try {
    if (rows.length > 0) await writer.write(`${rows.map((r) => r.text).join("\n")}\n`);
  } catch (err) {
    await writer.abort();
    throw err;
  }
  await writer.commit();
  return target;
}

export const runEvidenceMerge = oneRunEach(runEvidenceMergeInRun);

async function runEvidenceMergeInRun(options: EvidenceMergeOptions): Promise<ReportOutcome> {
  const started = process.hrtime.bigint();
  const { reports, first } = await readShardReports(options.reportPaths);
  const shards = reports.map((r, k) => {
    const shard = r.shard as EvidenceShard | undefined;
    if (r.task !== "evidence" || !shard || typeof shard.index !== "number" || shard.tally === undefined) {
      throw new InputError(located(options.reportPaths[k]!, undefined, "not a shard report of an evidence run (run `mari evidence … --shard I/N` first)"));
    }
    return shard;
  });
  const count = shards[0]!.count;
  const withoutShard = (r: Report) => canonicalJson({ ...(r.system.config as Record<string, unknown>), shard: null });
  reports.forEach((r, k) => {
    const where = options.reportPaths[k]!;
    if (shards[k]!.count !== count) throw new InputError(located(where, undefined, `shard count ${shards[k]!.count} differs from ${count}`));
    if (r.dataset.sha256 !== first.dataset.sha256 || r.predictions?.sha256 !== first.predictions?.sha256) {
      throw new InputError(located(where, undefined, "scored other documents or predictions than the first report"));
    }
    if (withoutShard(r) !== withoutShard(first)) throw new InputError(located(where, undefined, "was run with other inputs or settings than the first report"));
  });
  const indices = new Set(shards.map((s) => s.index));
  if (indices.size !== shards.length) throw new InputError("merge: a shard index appears twice");
  const absent = Array.from({ length: count }, (_, i) => i).filter((i) => !indices.has(i));
  if (absent.length > 0) throw new InputError(`merge: shard(s) ${absent.map((i) => `${i}/${count}`).join(", ")} missing`);

  const ordered = [...shards].sort((a, b) => a.index - b.index);
  const config = first.system.config as Record<string, string | null>;
  const settings: EvidenceOptions = {
    documents: first.dataset.path,
    ...(config.facts ? { facts: config.facts } : {}),
    ...(config.located ? { located: config.located } : {}),
    ...(config.materials ? { materials: config.materials } : {}),
    ...(config.current ? { current: config.current } : {}),
  };
  // The single run's reading order: documents, current, facts, materials, located.
  const stages = [settings.documents, settings.current, settings.facts, settings.materials, settings.located];
  const stage = (where: string) => {
    const i = stages.findIndex((path) => path !== undefined && where.startsWith(`${path}:`));
    return i < 0 ? stages.length : i;
  };
  const tally = mergeTallies(
    ordered.map((s) => s.tally),
    stage,
    ordered.map((s) => s.groundings ?? []),
  );
  const log = mergeLogs(
    ordered.map((s) => s.log),
    stage,
  );
  const gates = combineGates(options.gates ?? [], shardGateSpecs(reports.map((report, k) => ({ path: options.reportPaths[k]!, report }))));
  const mergedConfig = { ...config, shard: null, merged_from: options.reportPaths };
  const system = { ...first.system, config: mergedConfig, config_hash: sha256Text(canonicalJson(mergedConfig)) };
  const report = buildReport({ ...settings, gates }, tally, log, shards[0]!.counts, {
    system,
    documentsSha: first.dataset.sha256,
    documentsHash: first.dataset.slice_hash,
    predictionsPath: first.predictions!.path,
    predictionsSha: first.predictions!.sha256,
    elapsedSeconds: 0,
  });
  if (tally.cases + tally.locatedCases === 0) throw new InputError(`merge: no case to score in any shard (${log.total} rejected records)`);
  const caseFiles: string[] = [];
  if (settings.facts !== undefined) caseFiles.push(await mergeCaseLines(options.reportPaths, reports, "cases.jsonl", options.outDir));
  if (settings.located !== undefined) caseFiles.push(await mergeCaseLines(options.reportPaths, reports, "located.jsonl", options.outDir));
  report.elapsed_seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const written = await writeReportFiles(options.outDir, report, options.formats ?? DEFAULT_REPORT_FORMATS, {
    caseFiles: caseFiles.map((path) => ({ path })),
  });
  return { report, outDir: options.outDir, files: [...caseFiles, ...written], inputErrors: [] };
}
