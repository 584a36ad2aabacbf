// What the documents case explorer needs to know of every case before it chooses the ones the page
// carries: whether the case has runs, whether any failed, which outcomes, reasons and facets it
// has, its run count and its mean reward. Filled one run (or one streak of identical absent runs)
// at a time from plain values, so that an eval's run table (columns, no record per run), the paired
// side reader of `mari diff` (run lines scanned from their bytes) and a full per-(case, run) record
// all go through the same arithmetic and give the same summary.

/** The outcome tags of a run, in the order their bits are numbered. */
export const OUTCOMES = ["tp", "fp", "fn", "tn", "invalid"] as const;
export const OUTCOME_INVALID = 4;
/** A case's summary bits after its outcomes' (1 << outcome index): a run missed the gold sentences, a run judged positive, one judged negative. */
export const LOC_MISS = 1 << 5;
export const JUDGED_POSITIVE = 1 << 6;
export const JUDGED_NEGATIVE = 1 << 7;
/** The outcome bits that make a case a failure (fp, fn, invalid). */
const FAILED_OUTCOMES = 0b10110;

export const FACETS = ["scope", "doc_type", "contra_type"];

/** The outcome of a run: its index in OUTCOMES. */
export function outcomeIndex(label: unknown, valid: boolean, judgment: unknown): number {
  if (!valid || typeof judgment !== "boolean") return OUTCOME_INVALID;
  if (label === true) return judgment ? 0 : 2;
  return judgment ? 1 : 3;
}

/** A finite number, else null. */
export function finiteOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A run fails when its judgment is wrong, it is format-invalid or it missed the gold sentences. */
export function runFails(judgmentCorrect: unknown, formatValid: unknown, localizationHit: unknown): boolean {
  return judgmentCorrect !== true || formatValid !== true || localizationHit === false;
}

/** The facets of a case line, a full record or a case header (scope, doc_type, contra_type as text). */
export function facetsOf(source: Readonly<Record<string, unknown>>): Record<string, string> {
  const facets: Record<string, string> = {};
  for (const facet of FACETS) {
    const v = source[facet];
    if (typeof v === "string" || typeof v === "number") facets[facet] = String(v);
    // Several contra_types: one facet value naming them all.
    else if (Array.isArray(v)) facets[facet] = v.map(String).join(", ");
  }
  return facets;
}

/** One run (or a streak of `times` identical runs) as the summary reads it: a full record's fields. */
export interface SummaryRun {
  readonly label?: unknown;
  readonly judgment?: unknown;
  readonly format_valid?: unknown;
  readonly judgment_correct?: unknown;
  readonly localization_hit?: unknown;
  readonly reason?: unknown;
  readonly reward_accuracy?: unknown;
}

/** Per case (its slice index), what its runs say in all. */
export class CaseSummary {
  readonly present: Uint8Array;
  readonly failed: Uint8Array;
  readonly bits: Uint8Array;
  readonly runCount: Int32Array;
  readonly rewardSum: Float64Array;
  readonly rewardCount: Int32Array;
  /** Reason codes per case in order of first appearance: a case rarely has more than one, so a sparse map. */
  readonly reasonsOf = new Map<number, string[]>();
  readonly facetsOf: Array<Record<string, string> | undefined>;

  constructor(readonly caseCount: number) {
    this.present = new Uint8Array(caseCount);
    this.failed = new Uint8Array(caseCount);
    this.bits = new Uint8Array(caseCount);
    this.runCount = new Int32Array(caseCount);
    this.rewardSum = new Float64Array(caseCount);
    this.rewardCount = new Int32Array(caseCount);
    this.facetsOf = new Array(caseCount);
  }

  /**
   * Adds `times` runs of case `index` that all read as `run` (`facets` is asked for on the case's
   * first run only). Runs must come case by case in run order: the reward is summed one run at a
   * time in that order, as the mean over a case's runs is defined. An index outside the slice is
   * ignored.
   */
  add(index: unknown, run: SummaryRun, times: number, facets: () => Record<string, string>): void {
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= this.caseCount) return;
    if (!this.present[index]) {
      this.present[index] = 1;
      this.facetsOf[index] = facets();
    }
    if (runFails(run.judgment_correct, run.format_valid, run.localization_hit)) this.failed[index] = 1;
    let bits = this.bits[index]! | (1 << outcomeIndex(run.label, run.format_valid === true, run.judgment));
    if (run.localization_hit === false) bits |= LOC_MISS;
    const reason = run.reason;
    if (reason !== "missing_prediction") bits |= run.judgment === true ? JUDGED_POSITIVE : JUDGED_NEGATIVE;
    this.bits[index] = bits;
    if (typeof reason === "string") {
      const list = this.reasonsOf.get(index);
      if (list === undefined) this.reasonsOf.set(index, [reason]);
      else if (!list.includes(reason)) list.push(reason);
    }
    this.addRepeat(index, finiteOrNull(run.reward_accuracy), times);
  }

  /**
   * Adds `times` more runs of case `index` that read as a run already added for it (the same
   * fields): only its run count and reward sum move, as `add` would move them.
   */
  addRepeat(index: number, reward: number | null, times: number): void {
    this.runCount[index]! += times;
    if (reward === null) return;
    let sum = this.rewardSum[index]!;
    for (let t = 0; t < times; t++) sum += reward;
    this.rewardSum[index] = sum;
    this.rewardCount[index]! += times;
  }

  /** One record's worth of fields, reused by addFields. */
  private readonly scratch = {
    label: false,
    judgment: false,
    format_valid: false,
    judgment_correct: false,
    localization_hit: null as boolean | null,
    reason: null as string | null,
    reward_accuracy: 0,
  };

  /** `add` of runs given by the values their full record would carry (no record built). */
  addFields(
    index: number,
    label: boolean,
    judgment: boolean,
    formatValid: boolean,
    correct: boolean,
    localizationHit: boolean | null,
    reason: string | null,
    reward: number,
    times: number,
    facets: () => Record<string, string>,
  ): void {
    const run = this.scratch;
    run.label = label;
    run.judgment = judgment;
    run.format_valid = formatValid;
    run.judgment_correct = correct;
    run.localization_hit = localizationHit;
    run.reason = reason;
    run.reward_accuracy = reward;
    this.add(index, run, times, facets);
  }

  /**
   * Sets case `index` whole, as `add` would leave it after its runs: for a summary gathered
   * elsewhere (an eval's dense WebAssembly pass) with the same arithmetic, its rewards summed one
   * run at a time in run order.
   */
  setCase(
    index: number,
    facets: Record<string, string>,
    failed: boolean,
    bits: number,
    runs: number,
    rewardSum: number,
    rewards: number,
    reasons: string[],
  ): void {
    this.present[index] = 1;
    this.facetsOf[index] = facets;
    this.failed[index] = failed ? 1 : 0;
    this.bits[index] = bits;
    this.runCount[index] = runs;
    this.rewardSum[index] = rewardSum;
    this.rewardCount[index] = rewards;
    if (reasons.length > 0) this.reasonsOf.set(index, reasons);
  }

  /** Marks a case failed (a case that changed against a baseline). */
  markFailed(index: number): void {
    this.failed[index] = 1;
  }

  /** The case's filter tags: outcomes, reasons, loc_miss, flipped, its change, failure. */
  tags(index: number, changeStatus: string | undefined): string[] {
    return this.tagsInto(index, changeStatus, []);
  }

  /** `tags`, pushed onto `tags` (a caller that counts every case's tags reuses one list). */
  tagsInto(index: number, changeStatus: string | undefined, tags: string[]): string[] {
    const bits = this.bits[index]!;
    for (let k = 0; k < OUTCOMES.length; k++) if (bits & (1 << k)) tags.push(OUTCOMES[k]!);
    const reasons = this.reasonsOf.get(index);
    if (reasons !== undefined) for (const reason of reasons) tags.push(`invalid:${reason}`);
    if (bits & LOC_MISS) tags.push("loc_miss");
    // As SetCons counts flipped cases: runs with a kept line (format-invalid ones judged negative, as
    // scored) that do not all give the same judgment.
    if (bits & JUDGED_POSITIVE && bits & JUDGED_NEGATIVE) tags.push("flipped");
    if (changeStatus !== undefined) tags.push(changeStatus);
    if (bits & FAILED_OUTCOMES || bits & LOC_MISS || changeStatus === "regressed" || changeStatus === "mixed") tags.push("failure");
    return tags;
  }

  /** The mean reward over the case's runs, null when none has one. */
  score(index: number): number | null {
    return this.rewardCount[index]! > 0 ? this.rewardSum[index]! / this.rewardCount[index]! : null;
  }
}
