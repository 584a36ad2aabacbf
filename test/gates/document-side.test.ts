// A document eval's cases.jsonl read into a paired side by the byte scanner of run lines
// (readDocumentSide) against the general reader line by line (every line through JSON.parse and
// the full record, then the outcome objects): on random files mixing run lines in mari's own
// shape with lines that only look like it (spaces, other key orders, escapes, non-ASCII, leading
// zeros, huge or non-finite numbers, CRLF, invalid UTF-8, blank lines, run lines without a case,
// lines of the previous layout), the two sides, their skipped lines and their comparison must be
// identical, and a repeated (case, run) must be refused with the same message. What `mari diff`'s
// case explorer takes from the same reading (each case's summary, where each case's lines are) must
// equal what a second reading of every record gives, on the same files and on sparse ones.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPrng, type Prng } from "../../src/core/metrics/prng.js";
import { DOCUMENT_CLASSES, pairedSideComparison } from "../../src/gates/paired.js";
import { type PairedSide, pairedSide } from "../../src/gates/paired-side.js";
import { caseReaderOf, outcomeFromCaseLine, readDocumentSide, readPairedOutcomes } from "../../src/gates/side-reader.js";
import { CaseRanges, readCaseSegments } from "../../src/report/case-ranges.js";
import { type CaseItem, readDocumentCases } from "../../src/report/document-cases.js";
import { CaseSummary } from "../../src/report/explorer-summary.js";
import { recordSummary, segmentRecords } from "../../src/tasks/document/explorer.js";

const dir = mkdtempSync(join(tmpdir(), "mari-document-side-"));

/** The general reader's side: outcome objects from the full records, added in file order. */
async function generalSide(path: string): Promise<{ side: PairedSide; skippedLines: number; skippedExamples: string[] }> {
  const { outcomes, skippedLines, skippedExamples } = await readPairedOutcomes(path, outcomeFromCaseLine, caseReaderOf("documents"));
  return { side: pairedSide(outcomes), skippedLines, skippedExamples };
}

/** Every column of a side as plain data. */
function columns(side: PairedSide): unknown {
  const cases = side.caseCount();
  const per = <T extends ArrayLike<number>>(list: readonly T[]) => list.map((a) => Array.from(a).slice(0, cases));
  return {
    cases: side.cases.list,
    runs: side.runs.list,
    labels: side.labels.list,
    valueNames: side.valueNames.list,
    pairs: side.pairs,
    units: Array.from(side.units).slice(0, cases),
    right: Array.from(side.right).slice(0, cases),
    gold: Array.from(side.gold).slice(0, cases),
    predicted: per(side.predicted),
    labelFirst: per(side.labelFirst),
    valueSum: per(side.valueSum),
    valueCount: per(side.valueCount),
    valueFirst: per(side.valueFirst),
    slots: side.slots.map((s) => Array.from(s)),
    order: side.order.map((s) => Array.from(s)),
    size: side.size,
  };
}

const pick = <T>(prng: Prng, list: readonly T[]): T => list[prng.nextBelow(list.length)]!;

/** A run line in mari's own shape, or (`odd`) one of the shapes the scanner must leave to the general reader. */
function runLine(prng: Prng, run: string | number, sentences: number): string {
  const judgment = prng.nextBelow(2) === 0;
  const evidence = Array.from({ length: prng.nextBelow(4) }, () => 1 + prng.nextBelow(sentences + 2));
  const coverage = pick(prng, [0, 1, 0.5, 1 / 3, prng.nextBelow(1000) / 999, 1e-7]);
  const reason = prng.nextBelow(4) === 0 ? pick(prng, ["missing_prediction", "evidence_out_of_document"]) : undefined;
  const line = prng.nextBelow(5) === 0 ? undefined : 1 + prng.nextBelow(100000);
  const canonical = JSON.stringify({
    run,
    ...(line !== undefined ? { line } : {}),
    judgment,
    ...(reason !== undefined ? { reason } : {}),
    evidence_sentence_ids: evidence,
    reference_coverage: coverage,
  });
  if (prng.nextBelow(3) !== 0) return canonical;
  const runText = JSON.stringify(run);
  const odd = [
    canonical.replace(/,/g, ", "),
    `${canonical} `,
    `${canonical}\r`,
    `{"judgment":${judgment},"run":${runText},"evidence_sentence_ids":[],"reference_coverage":0}`,
    canonical.replace(`"run":${runText}`, `"run":"r\\u0031"`),
    canonical.replace(`"run":${runText}`, `"run":"é${run}"`),
    canonical.replace(`"run":${runText}`, '"run":007'),
    canonical.replace(`"run":${runText}`, '"run":-0'),
    canonical.replace(`"run":${runText}`, '"run":1.0'),
    canonical.replace(`"run":${runText}`, '"run":12345678901234567890'),
    canonical.replace(`"run":${runText}`, '"run":null'),
    canonical.replace(/"line":\d+/, '"line":0'),
    canonical.replace(/"line":\d+/, '"line":-3'),
    canonical.replace(/"line":\d+/, '"line":1e2'),
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":1e999'),
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":-0'),
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":2.5E-1'),
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":01'),
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":"0.5"'),
    // The same number as another line's coverage, written otherwise (the scanner keeps the last one's bytes).
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":0.50'),
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":0.5e0'),
    // Other numbers as long as a common coverage, differing in the last digit.
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":0.6'),
    canonical.replace(/"reference_coverage":[^}]*/, '"reference_coverage":0.3333333333333334'),
    // More evidence ids than the scanner first has room for, the gold ones last.
    canonical.replace(
      /"evidence_sentence_ids":\[[^\]]*\]/,
      `"evidence_sentence_ids":[${[...Array.from({ length: 30 }, () => sentences + 1), ...Array.from({ length: sentences }, (_, k) => k + 1)].join(",")}]`,
    ),
    canonical.replace(/"evidence_sentence_ids":\[[^\]]*\]/, '"evidence_sentence_ids":[1,1,2,-0]'),
    canonical.replace(/"evidence_sentence_ids":\[[^\]]*\]/, '"evidence_sentence_ids":[1.5]'),
    canonical.replace(/"evidence_sentence_ids":\[[^\]]*\]/, '"evidence_sentence_ids":[1,]'),
    canonical.replace(/"judgment":(true|false)/, '"judgment":1'),
    canonical.replace(/}$/, ',"reason":"late"}'),
    canonical.replace(/}$/, ',"extra":1}'),
    `${canonical}}`,
    canonical.slice(0, -1),
    `${canonical.slice(0, -1)},"reference_coverage":0.25}`,
    canonical.replace(/"judgment":(true|false)/, '"judgment":true,"reason":"bad\\"quote"'),
    canonical.replace(/"judgment":(true|false)/, '"judgment":false,"reason":null'),
    canonical.replace(/"judgment":(true|false)/, '"judgment":false,"reason":"ünïcode"'),
    "",
    "   ",
    "not json",
    "[1,2]",
  ];
  return pick(prng, odd);
}

/** A random document cases.jsonl (as text lines, some of them invalid UTF-8 as bytes). */
function randomCasesFile(seed: number, stream: number): Buffer {
  const prng = createPrng(seed, stream);
  const parts: Buffer[] = [];
  const push = (text: string) => parts.push(Buffer.from(`${text}\n`));
  const cases = 1 + prng.nextBelow(8);
  const runs = Array.from({ length: 1 + prng.nextBelow(6) }, (_, r) => (prng.nextBelow(3) === 0 ? r : String(r)));
  if (prng.nextBelow(4) === 0) push(runLine(prng, "0", 5));
  for (let c = 0; c < cases; c++) {
    const label = prng.nextBelow(2) === 0;
    const sentences = 3 + prng.nextBelow(6);
    const gold = label ? [1 + prng.nextBelow(sentences), 1 + prng.nextBelow(sentences)].filter((v, i, a) => a.indexOf(v) === i) : [];
    const id = `case-${prng.nextBelow(cases + 2)}`;
    const header = { case_id: id, case_index: c, label, gold_sentence_ids: gold, sentence_count: sentences, ...(prng.nextBelow(2) ? { scope: "local" } : {}) };
    const kind = prng.nextBelow(10);
    if (kind === 0) push(JSON.stringify({ ...header, label: "yes" }));
    else if (kind === 1) parts.push(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    else push(JSON.stringify(header));
    const order = prng.nextBelow(3) === 0 ? [...runs].reverse() : runs;
    for (const run of order) {
      if (prng.nextBelow(8) === 0) continue;
      if (prng.nextBelow(40) === 0) {
        // A line of the previous layout: the full record in one line.
        push(JSON.stringify({ case_id: id, case_index: c, label, run, line: 1, judgment: label, format_valid: true, reference_coverage: 0.5 }));
        continue;
      }
      const line = runLine(prng, run, sentences);
      if (prng.nextBelow(60) === 0) parts.push(Buffer.concat([Buffer.from(line.slice(0, 8)), Buffer.from([0xc3, 0x28]), Buffer.from(`${line.slice(8)}\n`)]));
      else push(line);
    }
  }
  return Buffer.concat(parts);
}

async function bothReadings(path: string) {
  const settle = async <T>(p: Promise<T>): Promise<{ ok: T } | { error: string }> => {
    try {
      return { ok: await p };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  return [await settle(readDocumentSide(path)), await settle(generalSide(path))] as const;
}

describe("a document cases.jsonl read by the run-line scanner", () => {
  it("gives the general reader's side, skips, refusals and comparison on random files", async () => {
    let compared = 0;
    let refused = 0;
    for (let stream = 0; stream < 300; stream++) {
      const path = join(dir, `cases-${stream}.jsonl`);
      writeFileSync(path, randomCasesFile(11, stream));
      const [fast, general] = await bothReadings(path);
      if ("error" in general) {
        expect(fast).toEqual(general);
        refused++;
        continue;
      }
      if (!("ok" in fast)) throw new Error(`the scanner refused what the general reader read: ${fast.error}`);
      expect(columns(fast.ok.side)).toEqual(columns(general.ok.side));
      expect([fast.ok.skippedLines, fast.ok.skippedExamples]).toEqual([general.ok.skippedLines, general.ok.skippedExamples]);
      const opts = { seed: 3, resamples: 20, classes: DOCUMENT_CLASSES };
      expect(pairedSideComparison(fast.ok.side, fast.ok.side, opts)).toEqual(pairedSideComparison(general.ok.side, general.ok.side, opts));
      compared++;
    }
    // Both branches are exercised.
    expect(compared).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(10);
  });

  it("reads a file of run lines in mari's own shape entirely, with integer and string run keys", async () => {
    const lines = [
      JSON.stringify({ case_id: "a", case_index: 0, label: true, gold_sentence_ids: [2, 3], sentence_count: 4 }),
      '{"run":"0","line":1,"judgment":true,"evidence_sentence_ids":[3,3,1],"reference_coverage":0.5}',
      '{"run":1,"judgment":false,"reason":"missing_prediction","evidence_sentence_ids":[],"reference_coverage":0}',
      JSON.stringify({ case_id: "b", case_index: 1, label: false, gold_sentence_ids: [], sentence_count: 2 }),
      '{"run":"0","line":2,"judgment":false,"evidence_sentence_ids":[],"reference_coverage":1}',
      '{"run":1,"line":4,"judgment":true,"evidence_sentence_ids":[1],"reference_coverage":0.25}',
    ];
    const path = join(dir, "own-shape.jsonl");
    writeFileSync(path, `${lines.join("\n")}\n`);
    const { side, skippedLines } = await readDocumentSide(path);
    expect(skippedLines).toBe(0);
    expect(columns(side)).toEqual(columns((await generalSide(path)).side));
    expect(side.runs.list).toEqual(["0", "1"]);
    // Case a: run 0 right, citing one of its two gold ids (a localization hit, not exact); run 1 missing.
    const a = side.caseIndex("a")!;
    expect([side.units[a], side.right[a]]).toEqual([2, 1]);
    const sum = (metric: string, c: number) => side.valueSum[side.valueNames.get(metric)!]![c];
    expect(sum("localization_recall", a)).toBe(1);
    expect(sum("exact_localization", a)).toBe(0);
    expect(sum("reward_accuracy_mean", a)).toBe(1 + 1 / 2);
    expect(sum("reference_coverage_mean", a)).toBe(0.5);
    expect(sum("format_valid_rate", a)).toBe(1);
    const b = side.caseIndex("b")!;
    expect([side.units[b], side.right[b]]).toEqual([2, 1]);
    expect(side.valueCount[side.valueNames.get("localization_recall")!]![b]).toBe(0);
  });

  it("refuses a repeated (case, run) naming the line it was first on", async () => {
    const path = join(dir, "repeat.jsonl");
    writeFileSync(
      path,
      [
        JSON.stringify({ case_id: "a", case_index: 0, label: false, gold_sentence_ids: [], sentence_count: 1 }),
        '{"run":"0","judgment":false,"evidence_sentence_ids":[],"reference_coverage":0}',
        '{"run":0,"judgment":true,"evidence_sentence_ids":[],"reference_coverage":0}',
      ].join("\n"),
    );
    await expect(readDocumentSide(path)).rejects.toThrow(`${path}:3: case "a" run "0" is already on line 2: not a cases.jsonl mari wrote`);
  });
});

/** The records of a file as its one reader gives them, the cases `keep` keeps (by the record). */
async function recordsOf(path: string, keep: (record: Record<string, unknown>) => boolean, want?: (index: number) => boolean): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of readDocumentCases(path, want ? { want } : {})) if ("record" in item && keep(item.record)) out.push(item.record);
  return out;
}

/** A random cases.jsonl of the sparse layout: the runs line, then per case its case line and run lines for some of its runs, in run order. */
function sparseCasesFile(seed: number, stream: number): string {
  const prng = createPrng(seed, stream);
  const runs = Array.from({ length: 1 + prng.nextBelow(6) }, (_, r) => (prng.nextBelow(3) === 0 ? r : String(r)));
  const lines = [JSON.stringify({ runs })];
  const cases = 1 + prng.nextBelow(7);
  for (let c = 0; c < cases; c++) {
    const label = prng.nextBelow(2) === 0;
    const sentences = 3 + prng.nextBelow(6);
    const gold = label ? [1 + prng.nextBelow(sentences)] : [];
    // Now and then a case id met before: its runs then repeat, which the reader refuses.
    const id = prng.nextBelow(12) === 0 ? "case-0" : `case-${c}`;
    lines.push(
      JSON.stringify({
        case_id: id,
        case_index: c,
        label,
        gold_sentence_ids: gold,
        sentence_count: sentences,
        ...(prng.nextBelow(2) ? { doc_type: "news" } : {}),
      }),
    );
    for (const run of runs) if (prng.nextBelow(2) === 0) lines.push(runLine(prng, run, sentences));
  }
  return `${lines.join("\n")}\n`;
}

function summaryData(summary: CaseSummary): unknown {
  return {
    columns: [summary.present, summary.failed, summary.bits, summary.runCount, summary.rewardCount].map((a) => Array.from(a)),
    rewardSum: Array.from(summary.rewardSum, (v) => Buffer.from(new Float64Array([v]).buffer).toString("hex")),
    reasons: [...summary.reasonsOf.entries()].sort((a, b) => a[0] - b[0]),
    facets: Array.from(summary.facetsOf, (f) => f ?? null),
  };
}

describe("the case explorer's reading alongside the paired side", () => {
  it("gives the summary and the chosen cases' records a second reading of the whole file gives", async () => {
    let segmented = 0;
    let compared = 0;
    for (let stream = 0; stream < 300; stream++) {
      const path = join(dir, `explore-${stream}.jsonl`);
      // One file in three has the sparse layout.
      writeFileSync(path, stream % 3 === 0 ? sparseCasesFile(17, stream) : randomCasesFile(17, stream));
      const caseCount = 6;
      const extras = { ranges: new CaseRanges(), summary: new CaseSummary(caseCount) };
      try {
        await readDocumentSide(path, extras);
      } catch {
        continue;
      }
      const all = await recordSummary(caseCount, async (_want, visit) => {
        for await (const item of readDocumentCases(path)) if ("record" in item) visit(item.record, 1, () => item.record);
      });
      expect(summaryData(extras.summary)).toEqual(summaryData(all));
      // NEW's chosen cases, by case_index: what attachRuns keeps of the records either way.
      const prng = createPrng(stream, 5);
      const chosen = new Set(Array.from({ length: 3 }, () => prng.nextBelow(caseCount)));
      const want = (index: number) => chosen.has(index);
      const fromSegments: unknown[] = [];
      await segmentRecords(path, extras.ranges)(want, (record) => {
        if (want(record["case_index"] as number)) fromSegments.push(record);
      });
      expect(fromSegments).toEqual(await recordsOf(path, (r) => want(r["case_index"] as number), want));
      // OLD's changed cases, by case id.
      const ids = new Set(Array.from({ length: 3 }, () => `case-${prng.nextBelow(8)}`));
      if (!extras.ranges.scattered) {
        segmented++;
        const slots = [...ids].flatMap((id) => {
          const slot = extras.ranges.slot(id);
          return slot !== undefined ? [slot] : [];
        });
        const byId: unknown[] = [];
        await readCaseSegments(path, extras.ranges, slots, (item: CaseItem) => {
          if ("record" in item && ids.has(String(item.record["case_id"]))) byId.push(item.record);
        });
        expect(byId).toEqual(await recordsOf(path, (r) => ids.has(String(r["case_id"]))));
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(50);
    expect(segmented).toBeGreaterThan(20);
  });
});
