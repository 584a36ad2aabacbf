// AssemblyScript, compiled by scripts/build-wasm.mjs into src/core/metrics/judgment-agreement-wasm.ts
// (the module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// SetCons's judgment agreement (src/core/metrics/judgment-agreement.ts): the mean over run pairs
// r < s of the fraction of their common cases on which they agree. Each run is held as two
// bitsets over cases, 64 to a word (present; present and positive); a pair's common cases are
// popcount(any_r & any_s), its disagreements popcount(both & (pos_r ^ pos_s)), one popcount a word
// for runs present on the same cases. The fractions are added in pair order, (r, s) with s
// ascending inside r ascending, as src/core/metrics/setcons.ts always added them, so the mean has
// the same bits; test/document-eval/setcons.test.ts holds the two to the same means.
//
// JavaScript calls setLayout, then per batch of runs copies their present and judgment bytes
// (run-major, `cases` a run) to the byte columns and calls packRuns; then addPairsOf per run, and
// mean.

let runs: i32 = 0;
let cases: i32 = 0;
/** u64 words per run's bitset. */
let words: i32 = 0;
/** u8 per (run of the batch, case): the batch's present and judgment bytes, 16 bytes readable past each. */
let presentBytes: usize = 0;
let judgmentBytes: usize = 0;
/** u64 per (run, word): the present bitsets and the present-and-positive ones. */
let any: usize = 0;
let pos: usize = 0;
/** i32 per run: its present cases. */
let anyCount: usize = 0;
/** i32 per run: the first run present on the same cases (equal classes: equal presence). */
let presenceClass: usize = 0;
/** u64 per run: a hash of its present bitset; i32: the runs first with their presence, and how many. */
let hashes: usize = 0;
let firsts: usize = 0;
let firstCount: i32 = 0;
/** The sum of the fractions of pairs with a common case, and their count, over the runs added so far. */
let sum: f64 = 0;
let used: i32 = 0;

export function setLayout(
  runCount: i32,
  caseCount: i32,
  presentColumn: usize,
  judgmentColumn: usize,
  anyColumn: usize,
  posColumn: usize,
  countColumn: usize,
  classColumn: usize,
  hashColumn: usize,
  firstColumn: usize,
): void {
  runs = runCount;
  cases = caseCount;
  words = (caseCount + 63) >>> 6;
  presentBytes = presentColumn;
  judgmentBytes = judgmentColumn;
  any = anyColumn;
  pos = posColumn;
  anyCount = countColumn;
  presenceClass = classColumn;
  hashes = hashColumn;
  firsts = firstColumn;
  firstCount = 0;
  sum = 0;
  used = 0;
}

@inline function word(column: usize, run: i32, w: i32): u64 {
  return load<u64>(column + ((<usize>run * <usize>words + <usize>w) << 3));
}

@inline function getI32(column: usize, k: i32): i32 {
  return load<i32>(column + (<usize>k << 2));
}

@inline function setI32(column: usize, k: i32, value: i32): void {
  store<i32>(column + (<usize>k << 2), value);
}

function samePresence(r: i32, s: i32): bool {
  for (let w = 0; w < words; w++) if (word(any, r, w) !== word(any, s, w)) return false;
  return true;
}

/**
 * Packs runs first … first + count − 1 from the byte columns (the batch's run b at b · cases):
 * a byte counts when it is non-zero, 16 cases per comparison; and files each run's presence class.
 */
export function packRuns(first: i32, count: i32): void {
  const zero = i8x16.splat(0);
  for (let b = 0; b < count; b++) {
    const r = first + b;
    const present = presentBytes + <usize>b * <usize>cases;
    const judgment = judgmentBytes + <usize>b * <usize>cases;
    let presentCount = 0;
    let hash: u64 = 0;
    for (let w = 0; w < words; w++) {
      let anyWord: u64 = 0;
      let posWord: u64 = 0;
      for (let k = 0; k < 4; k++) {
        const i = (w << 6) + (k << 4);
        if (i >= cases) break;
        const here = i8x16.ne(v128.load(present + <usize>i), zero);
        const positive = v128.and(here, i8x16.ne(v128.load(judgment + <usize>i), zero));
        // The last chunk's bytes past the run's cases belong to the next run (or the padding).
        const keep: u32 = cases - i >= 16 ? 0xffff : (<u32>1 << <u32>(cases - i)) - 1;
        anyWord |= <u64>(i8x16.bitmask(here) & keep) << (<u64>k << 4);
        posWord |= <u64>(i8x16.bitmask(positive) & keep) << (<u64>k << 4);
      }
      store<u64>(any + ((<usize>r * <usize>words + <usize>w) << 3), anyWord);
      store<u64>(pos + ((<usize>r * <usize>words + <usize>w) << 3), posWord);
      presentCount += <i32>popcnt(anyWord);
      hash = (hash ^ anyWord) * 0x9e3779b97f4a7c15;
      hash ^= hash >>> 29;
    }
    setI32(anyCount, r, presentCount);
    store<u64>(hashes + (<usize>r << 3), hash);
    // The first run with the same presence, among the first runs of each presence so far.
    let presence = r;
    for (let f = 0; f < firstCount; f++) {
      const s = getI32(firsts, f);
      if (load<u64>(hashes + (<usize>s << 3)) === hash && samePresence(r, s)) {
        presence = s;
        break;
      }
    }
    if (presence === r) setI32(firsts, firstCount++, r);
    setI32(presenceClass, r, presence);
  }
}

/**
 * Adds the pairs (r, s), s > r ascending, that have a common case. JavaScript calls it for r
 * ascending, a call per run: code runs unoptimized until its function is called again, and one
 * call for every pair stayed unoptimized throughout.
 */
export function addPairsOf(r: i32): void {
  const a = any + ((<usize>r * <usize>words) << 3);
  const p = pos + ((<usize>r * <usize>words) << 3);
  const presence = getI32(presenceClass, r);
  for (let s = r + 1; s < runs; s++) {
    const b = any + ((<usize>s * <usize>words) << 3);
    const q = pos + ((<usize>s * <usize>words) << 3);
    let common = 0;
    let differ: u64 = 0;
    if (getI32(presenceClass, s) === presence) {
      common = getI32(anyCount, r);
      for (let w = 0; w < words; w++) {
        const at = <usize>w << 3;
        differ += popcnt(load<u64>(p + at) ^ load<u64>(q + at));
      }
    } else {
      let both: u64 = 0;
      for (let w = 0; w < words; w++) {
        const at = <usize>w << 3;
        const shared = load<u64>(a + at) & load<u64>(b + at);
        both += popcnt(shared);
        differ += popcnt(shared & (load<u64>(p + at) ^ load<u64>(q + at)));
      }
      common = <i32>both;
    }
    if (common === 0) continue;
    sum += <f64>(common - <i32>differ) / <f64>common;
    used++;
  }
}

/** The mean over the pairs added with a common case (0 without such pairs). */
export function mean(): f64 {
  return used > 0 ? sum / <f64>used : 0;
}

export function pairsUsed(): i32 {
  return used;
}

export function heapBase(): usize {
  return __heap_base;
}
