// `mari eval` on a `mari serve --log` whose items carried their generation identity (the TRL example
// sends it; docs/serve.md, "Runs"): the runs are recomputed from the identity, not taken from the
// order the items reached one server, so the logs of several servers behind one trainer replay alike
// and a log's line order changes nothing. One phase is replayed (train by default, or eval); when a
// step of a phase was logged by several attempts (a run resumed from a checkpoint regenerates the
// steps after it), the newest attempt's lines are kept and the older ones are superseded, counted.
// Within the phase, a case's generation groups ordered by (step, batch, prompt index) are its passes:
// generation g of the case's k-th group is run `g` (k = 0), then `g~k`. Lines without an identity,
// and lines that are not JSON objects, pass through unchanged to be scored or rejected as in any dump.
import { firstTextLine, readLines } from "../../io/lines.js";

export type ReplayPhase = "train" | "eval";
export const REPLAY_PHASES: readonly ReplayPhase[] = ["train", "eval"];

/** What the replay did to the log, for report.json's `config.serve_replay`. */
export interface ServeReplaySummary {
  phase: ReplayPhase;
  /** Lines with a generation identity, of any phase. */
  identified_lines: number;
  /** Of those, lines of the other phase (not scored). */
  other_phase_lines: number;
  /** Lines of the phase whose step a newer attempt logged again (not scored). */
  superseded_lines: number;
  /** Attempts (training processes) seen in the phase. */
  attempts: number;
  /** Cases with a kept line of the phase: without --limit, the only cases scored. */
  covered_cases: number;
}

interface Identified {
  lineNo: number;
  record: Record<string, unknown>;
  text: string;
  phase: ReplayPhase;
  step: number;
  attempt: number;
  batch: number;
  promptIndex: number;
  generation: number;
  caseId: string;
}

/** A serve log line starts with its request id (request-log.ts writes it first). */
const SERVE_LINE_START = '{"request":';

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The identity of a logged line, or undefined (not a serve log line with one). */
function identified(lineNo: number, text: string): Identified | undefined {
  if (!text.startsWith(SERVE_LINE_START)) return undefined;
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    record = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const phase = record.phase;
  const step = count(record.step);
  const generation = count(record.generation);
  const promptIndex = count(record.prompt_index);
  if ((phase !== "train" && phase !== "eval") || step === undefined || generation === undefined || promptIndex === undefined) return undefined;
  if (typeof record.case_id !== "string") return undefined;
  return {
    lineNo,
    record,
    text,
    phase,
    step,
    attempt: count(record.attempt) ?? 0,
    batch: count(record.batch) ?? 0,
    promptIndex,
    generation,
    caseId: record.case_id,
  };
}

/** Whether the file is a serve log whose lines carry generation identities (its first line says). */
export async function isIdentifiedServeLog(path: string): Promise<boolean> {
  const line = await firstTextLine(path);
  return line !== null && identified(line.lineNo, line.text) !== undefined;
}

/** The line with its run key replaced, byte for byte otherwise (numbers such as `2.0` stay as written). */
function withRun(item: Identified, run: string): string {
  const at = item.text.indexOf('"run":');
  const old = `"run":${JSON.stringify(item.record.run)}`;
  if (at !== -1 && item.text.startsWith(old, at)) return `${item.text.slice(0, at)}"run":${JSON.stringify(run)}${item.text.slice(at + old.length)}`;
  return JSON.stringify({ ...item.record, run });
}

/** The kept lines of the phase, each with its replayed run key, by line number; and what was left out. */
function replay(items: Identified[], phase: ReplayPhase): { kept: Map<number, string>; covered: Set<string>; summary: ServeReplaySummary } {
  const ofPhase = items.filter((x) => x.phase === phase);
  const newest = new Map<number, number>();
  for (const x of ofPhase) newest.set(x.step, Math.max(newest.get(x.step) ?? 0, x.attempt));
  const current = ofPhase.filter((x) => x.attempt === newest.get(x.step));
  current.sort((a, b) => a.step - b.step || a.batch - b.batch || a.promptIndex - b.promptIndex || a.generation - b.generation || a.lineNo - b.lineNo);
  // A case's k-th group in that order is its k-th pass.
  const passes = new Map<string, { group: string; pass: number }>();
  const kept = new Map<number, string>();
  for (const x of current) {
    const group = `${x.step}/${x.batch}/${x.promptIndex}`;
    const seen = passes.get(x.caseId);
    const pass = seen === undefined ? 0 : seen.group === group ? seen.pass : seen.pass + 1;
    passes.set(x.caseId, { group, pass });
    kept.set(x.lineNo, withRun(x, pass === 0 ? String(x.generation) : `${x.generation}~${pass}`));
  }
  return {
    kept,
    covered: new Set(passes.keys()),
    summary: {
      phase,
      identified_lines: items.length,
      other_phase_lines: items.length - ofPhase.length,
      superseded_lines: ofPhase.length - current.length,
      attempts: new Set(ofPhase.map((x) => x.attempt)).size,
      covered_cases: passes.size,
    },
  };
}

/**
 * The log's lines as `mari eval` scores them: each kept identified line with its replayed run, every
 * other line unchanged, and the lines left out (other phase, superseded) absent, so the others keep
 * their line numbers. Blocks of consecutive lines, each with the number of its first.
 */
export async function serveReplay(
  path: string,
  phase: ReplayPhase,
): Promise<{ blocks: { firstLineNo: number; block: Buffer }[]; covered: ReadonlySet<string>; summary: ServeReplaySummary }> {
  const items: Identified[] = [];
  const plain = new Map<number, string | null>();
  let last = 0;
  for await (const line of readLines(path)) {
    last = line.lineNo;
    const item = line.text === null ? undefined : identified(line.lineNo, line.text);
    if (item !== undefined) items.push(item);
    else plain.set(line.lineNo, line.text);
  }
  const { kept, covered, summary } = replay(items, phase);
  const blocks: { firstLineNo: number; block: Buffer }[] = [];
  let parts: Buffer[] = [];
  let first = 0;
  for (let n = 1; n <= last; n++) {
    const text = kept.get(n) ?? plain.get(n);
    if (text === undefined && !plain.has(n)) {
      if (parts.length > 0) blocks.push({ firstLineNo: first, block: Buffer.concat(parts) });
      parts = [];
      continue;
    }
    if (parts.length === 0) first = n;
    // A line that is not UTF-8 stays one: the reader reports it as it would in the file.
    parts.push(text === null || text === undefined ? Buffer.from([0xff, 0x0a]) : Buffer.from(`${text}\n`, "utf8"));
  }
  if (parts.length > 0) blocks.push({ firstLineNo: first, block: Buffer.concat(parts) });
  return { blocks, covered, summary };
}
