// One side of a paired comparison as per-case accumulators instead of one object per (case, run):
// what src/gates/paired.ts needs from a side is, per case, the number of its runs, how many were
// judged right, the count of each predicted class, the first run's gold class and the sum and
// count of each value; plus, per (case, run), a two-byte code of its (gold, predicted) pair (the
// first line of a repeated (case, run) is kept, as before) and its order of arrival, which
// src/gates/changes.ts matches across sides. Every column is a typed array over cases, grown
// geometrically; adding a unit allocates nothing once the labels, runs and value names are known.
// The first appearance of each label and value name within each case is kept too, so that the
// comparison can reproduce the order in which it met them (class indices, metric order).

/**
 * One scored (case, run) as the comparison needs it. Tasks fill it from their per-case results
 * (cases.jsonl lines): `gold` and `predicted` are class labels as scored (a format-invalid or
 * missing prediction carries the class it was scored as, e.g. "negative"); `values` holds per-case
 * numbers whose mean over units is a headline metric, keyed by that metric's name (e.g.
 * `localization_recall` ← localization_hit as 0/1, only on gold-positive cases). A missing or
 * null value leaves the unit out of that metric's population.
 */
export interface PairedOutcome {
  case_id: string;
  run: string;
  gold: string;
  predicted: string;
  values?: Record<string, number | null>;
}

function grown<T extends Float64Array | Uint32Array | Int32Array | Uint16Array>(array: T, needed: number, make: (n: number) => T, fill?: number): T {
  if (array.length >= needed) return array;
  const next = make(Math.max(needed, array.length * 2, 16));
  next.set(array);
  if (fill !== undefined) next.fill(fill, array.length);
  return next;
}

/** Strings met in order, each with its index. */
class Interned {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  get(text: string): number | undefined {
    return this.index.get(text);
  }
  add(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.list.length;
      this.index.set(text, i);
      this.list.push(text);
    }
    return i;
  }
}

export class PairedSide {
  readonly cases = new Interned();
  readonly runs = new Interned();
  readonly labels = new Interned();
  readonly valueNames = new Interned();
  /** (gold, predicted) label index pairs; a slot holds 1 + the pair's index, 0 when absent. */
  readonly pairs: [number, number][] = [];
  private readonly pairIndex = new Map<number, number>();
  /** Per case: units kept, units judged right, the first unit's gold label. */
  units = new Uint32Array(0);
  right = new Uint32Array(0);
  gold = new Int32Array(0);
  /** Per label, per case: units predicting it; first appearance (2 · unit ordinal + 0 gold / 1 predicted), -1 none. */
  predicted: Uint32Array[] = [];
  labelFirst: Float64Array[] = [];
  /** Per value name, per case: sum and count of its finite values; first appearance of the key (unit ordinal · 2^20 + key position), -1 none. */
  valueSum: Float64Array[] = [];
  valueCount: Uint32Array[] = [];
  valueFirst: Float64Array[] = [];
  /** Per case, per run index: 1 + pair code (0: absent), and the unit's arrival order. */
  slots: Uint16Array[] = [];
  order: Uint32Array[] = [];
  /** Units kept so far (repeated (case, run) lines are not counted). */
  size = 0;

  private caseCapacity(needed: number): void {
    this.units = grown(this.units, needed, (n) => new Uint32Array(n));
    this.right = grown(this.right, needed, (n) => new Uint32Array(n));
    this.gold = grown(this.gold, needed, (n) => new Int32Array(n));
    for (let l = 0; l < this.predicted.length; l++) {
      this.predicted[l] = grown(this.predicted[l]!, needed, (n) => new Uint32Array(n));
      this.labelFirst[l] = grown(this.labelFirst[l]!, needed, (n) => new Float64Array(n), -1);
    }
    for (let v = 0; v < this.valueSum.length; v++) {
      this.valueSum[v] = grown(this.valueSum[v]!, needed, (n) => new Float64Array(n));
      this.valueCount[v] = grown(this.valueCount[v]!, needed, (n) => new Uint32Array(n));
      this.valueFirst[v] = grown(this.valueFirst[v]!, needed, (n) => new Float64Array(n), -1);
    }
  }

  /** The index of a label, interned on first sight. */
  label(text: string): number {
    const l = this.labels.add(text);
    if (l === this.predicted.length) {
      this.predicted.push(new Uint32Array(this.units.length));
      this.labelFirst.push(new Float64Array(this.units.length).fill(-1));
    }
    return l;
  }

  /** The index of a value name, interned on first sight. */
  valueName(text: string): number {
    const v = this.valueNames.add(text);
    if (v === this.valueSum.length) {
      this.valueSum.push(new Float64Array(this.units.length));
      this.valueCount.push(new Uint32Array(this.units.length));
      this.valueFirst.push(new Float64Array(this.units.length).fill(-1));
    }
    return v;
  }

  /** The index of a case id, interned (its columns grown) on first sight. */
  caseFor(caseId: string): number {
    const c = this.cases.add(caseId);
    if (c === this.slots.length) {
      this.caseCapacity(c + 1);
      this.slots.push(new Uint16Array(0));
      this.order.push(new Uint32Array(0));
    }
    return c;
  }

  /** Whether (case c, run r) was added already. */
  has(c: number, r: number): boolean {
    const slots = this.slots[c]!;
    return r < slots.length && slots[r] !== 0;
  }

  /** Adds one (case, run); false when that (case, run) was already added (the first one stands). */
  add(o: PairedOutcome): boolean {
    const c = this.caseFor(o.case_id);
    const r = this.runs.add(o.run);
    if (this.has(c, r)) return false;
    const g = this.label(o.gold);
    const p = this.label(o.predicted);
    const keys: number[] = [];
    const values: number[] = [];
    if (o.values !== undefined) {
      for (const name of Object.keys(o.values)) {
        keys.push(this.valueName(name));
        const value = o.values[name];
        values.push(typeof value === "number" && Number.isFinite(value) ? value : Number.NaN);
      }
    }
    return this.addUnit(c, r, g, p, keys, values);
  }

  /**
   * `add` with everything as indices (caseFor, runs.add, label, valueName): the first `count` of
   * `keys` are the unit's value names in its key order, of `values` theirs, NaN where the unit
   * names the value but has none.
   */
  addUnit(c: number, r: number, g: number, p: number, keys: ArrayLike<number>, values: ArrayLike<number>, count = keys.length): boolean {
    let slots = this.slots[c]!;
    if (r < slots.length && slots[r] !== 0) return false;
    if (r >= slots.length) {
      slots = this.slots[c] = grown(slots, r + 1, (n) => new Uint16Array(n));
      this.order[c] = grown(this.order[c]!, r + 1, (n) => new Uint32Array(n));
    }
    const key = g * 65536 + p;
    let pair = this.pairIndex.get(key);
    if (pair === undefined) {
      pair = this.pairs.length;
      if (pair >= 65535) throw new RangeError("more than 65,535 distinct (gold, predicted) class pairs");
      this.pairIndex.set(key, pair);
      this.pairs.push([g, p]);
    }
    slots[r] = pair + 1;
    this.order[c]![r] = this.size++;
    const ordinal = this.units[c]!;
    if (ordinal === 0) this.gold[c] = g;
    this.units[c] = ordinal + 1;
    if (g === p) this.right[c]!++;
    this.predicted[p]![c]!++;
    if (this.labelFirst[g]![c]! < 0) this.labelFirst[g]![c] = 2 * ordinal;
    if (this.labelFirst[p]![c]! < 0) this.labelFirst[p]![c] = 2 * ordinal + 1;
    for (let position = 0; position < count; position++) {
      const m = keys[position]!;
      if (this.valueFirst[m]![c]! < 0) this.valueFirst[m]![c] = ordinal * 1048576 + position;
      const value = values[position]!;
      if (value === value) {
        this.valueSum[m]![c]! += value;
        this.valueCount[m]![c]!++;
      }
    }
    return true;
  }

  caseCount(): number {
    return this.cases.list.length;
  }

  caseIndex(caseId: string): number | undefined {
    return this.cases.get(caseId);
  }
}

/** The side of a list of outcomes, in their order. */
export function pairedSide(outcomes: Iterable<PairedOutcome>): PairedSide {
  const side = new PairedSide();
  for (const o of outcomes) side.add(o);
  return side;
}
