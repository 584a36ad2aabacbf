// AssemblyScript, compiled by scripts/build-wasm.mjs into src/core/metrics/evidence-pairs-wasm.ts
// (the module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// SetCons's evidence Jaccard (src/core/metrics/evidence-pairs.ts): per case, the present runs'
// evidence sets grouped by their IDs in order of first appearance, then the sum over run pairs of
// their Jaccard as EvidenceSets.pairSum of src/core/metrics/setcons.ts adds it (the same float
// operations in the same order, so the same bits): C(k, 2) per set of k runs, then
// k_g · k_h · J(S_g, S_h) for each later set h sharing an ID with g, h ascending. The pairs
// sharing an ID are found by a 32-bit mask per set and a merge when the sets are few (or not
// strictly sorted: then the merge's count is the definition), through an index of the IDs
// otherwise. test/document-eval/setcons.test.ts holds the two to the same sums.
//
// JavaScript copies every evidence ID into the memory once and calls setLayout; then, per block
// of cases, writes each present run's range of IDs (entries of case b at b · stride, in run
// order), the entry count per case, and calls blockSums.

/** i32: every evidence ID; an entry's set is ids[start … end). */
let ids: usize = 0;
/** i32 per entry: its set's start and end. */
let starts: usize = 0;
let ends: usize = 0;
/** i32 per case of the block: its entries. */
let entryCounts: usize = 0;
/** f64 per case of the block: the sum over its run pairs. */
let sums: usize = 0;
// Scratch, sized by JavaScript for `entries` entries and `total` IDs a case (scratchBytes there).
/** Grouping: a hash table of group + 1 (0: empty); per group its first set's range and its runs. */
let groupSlots: usize = 0;
let groupStart: usize = 0;
let groupEnd: usize = 0;
let groupCount: usize = 0;
/** Per group: its mask of (ID mod 32); or the set last met from, and the IDs shared with it. */
let masks: usize = 0;
let stamp: usize = 0;
let shared: usize = 0;
/** Bitset over groups: those met from the current group. */
let met: usize = 0;
/** The ID index: a hash table of IDs and their number + 1, the number of each listed ID, the lists of groups per ID. */
let idKeys: usize = 0;
let idNumbers: usize = 0;
let listed: usize = 0;
let lists: usize = 0;
let listStart: usize = 0;
let cursor: usize = 0;

/** Above this many distinct sets, pairs sharing an ID are found through the ID index (setcons.ts's INDEXED_SETS). */
const INDEXED_SETS: i32 = 16;

/** Slots of a hash table for `items` keys: a power of two of at least 16 and twice the keys (≤ 4 · items + 16). */
function tableSize(items: i32): i32 {
  let size = 16;
  while (size < 2 * items) size <<= 1;
  return size;
}

export function setLayout(
  idColumn: usize,
  startColumn: usize,
  endColumn: usize,
  countColumn: usize,
  sumColumn: usize,
  scratch: usize,
  entries: i32,
  total: i32,
): void {
  ids = idColumn;
  starts = startColumn;
  ends = endColumn;
  entryCounts = countColumn;
  sums = sumColumn;
  let at = scratch;
  groupSlots = at;
  at += <usize>tableSize(entries) << 2;
  groupStart = at;
  at += <usize>entries << 2;
  groupEnd = at;
  at += <usize>entries << 2;
  groupCount = at;
  at += <usize>entries << 2;
  masks = at;
  at += <usize>entries << 2;
  stamp = at;
  at += <usize>entries << 2;
  shared = at;
  at += <usize>entries << 2;
  met = at;
  at += <usize>((entries >>> 5) + 1) << 2;
  idKeys = at;
  at += <usize>tableSize(total) << 2;
  idNumbers = at;
  at += <usize>tableSize(total) << 2;
  listed = at;
  at += <usize>total << 2;
  lists = at;
  at += <usize>total << 2;
  listStart = at;
  at += <usize>(total + 1) << 2;
  cursor = at;
}

@inline function id(k: i32): i32 {
  return load<i32>(ids + (<usize>k << 2));
}

@inline function getI32(column: usize, k: i32): i32 {
  return load<i32>(column + (<usize>k << 2));
}

@inline function setI32(column: usize, k: i32, value: i32): void {
  store<i32>(column + (<usize>k << 2), value);
}

/** A hash of the set ids[start … end) (only equal sets must meet). */
function setHash(start: i32, end: i32): u32 {
  let h = <u32>(end - start);
  for (let k = start; k < end; k++) h = (h ^ <u32>id(k)) * 0x9e3779b1;
  return h ^ (h >>> 16);
}

function sameSet(a0: i32, a1: i32, b0: i32, b1: i32): bool {
  if (a1 - a0 !== b1 - b0) return false;
  for (let k = 0; k < a1 - a0; k++) if (id(a0 + k) !== id(b0 + k)) return false;
  return true;
}

/**
 * Groups the `count` entries from `first` by set, in order of first appearance; returns the number
 * of groups, negated when a set is not strictly increasing.
 */
function group(first: i32, count: i32): i32 {
  const size = tableSize(count);
  const mask = size - 1;
  memory.fill(groupSlots, 0, <usize>size << 2);
  let groups = 0;
  let strictlySorted = true;
  for (let e = first; e < first + count; e++) {
    const start = getI32(starts, e);
    const end = getI32(ends, e);
    for (let slot = <i32>(setHash(start, end) & <u32>mask); ; slot = (slot + 1) & mask) {
      const g = getI32(groupSlots, slot) - 1;
      if (g < 0) {
        setI32(groupSlots, slot, groups + 1);
        setI32(groupStart, groups, start);
        setI32(groupEnd, groups, end);
        setI32(groupCount, groups, 1);
        groups++;
        for (let k = start + 1; k < end; k++) if (!(id(k) > id(k - 1))) strictlySorted = false;
        break;
      }
      if (sameSet(getI32(groupStart, g), getI32(groupEnd, g), start, end)) {
        setI32(groupCount, g, getI32(groupCount, g) + 1);
        break;
      }
    }
  }
  return strictlySorted ? groups : -groups;
}

/** |a ∩ b| of ids[a0 … a1) and ids[b0 … b1) by a merge (setcons.ts's sortedIntersection). */
function sortedIntersection(a0: i32, a1: i32, b0: i32, b1: i32): i32 {
  let i = a0;
  let j = b0;
  let inter = 0;
  while (i < a1 && j < b1) {
    const x = id(i);
    const y = id(j);
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter;
}

/** EvidenceSets.maskedPairSum over the D groups. */
function maskedPairSum(D: i32): f64 {
  for (let g = 0; g < D; g++) {
    let mask = 0;
    for (let k = getI32(groupStart, g); k < getI32(groupEnd, g); k++) mask |= 1 << (id(k) & 31);
    setI32(masks, g, mask);
  }
  let sum: f64 = 0;
  for (let g = 0; g < D; g++) {
    const cg = <f64>getI32(groupCount, g);
    sum += (cg * (cg - 1)) / 2;
    const g0 = getI32(groupStart, g);
    const g1 = getI32(groupEnd, g);
    const maskG = getI32(masks, g);
    for (let h = g + 1; h < D; h++) {
      if ((maskG & getI32(masks, h)) === 0) continue;
      const h0 = getI32(groupStart, h);
      const h1 = getI32(groupEnd, h);
      const inter = sortedIntersection(g0, g1, h0, h1);
      if (inter === 0) continue;
      sum += cg * <f64>getI32(groupCount, h) * (<f64>inter / <f64>(g1 - g0 + h1 - h0 - inter));
    }
  }
  return sum;
}

/** Numbers the distinct IDs of the D groups' sets in order of first appearance into `listed`; returns how many. */
function numberIds(D: i32, total: i32): i32 {
  const size = tableSize(total);
  const mask = size - 1;
  memory.fill(idNumbers, 0, <usize>size << 2);
  let numbers = 0;
  let k = 0;
  for (let g = 0; g < D; g++) {
    for (let at = getI32(groupStart, g); at < getI32(groupEnd, g); at++) {
      const x = id(at);
      let h = <u32>x * 0x9e3779b1;
      for (let slot = <i32>((h ^ (h >>> 16)) & <u32>mask); ; slot = (slot + 1) & mask) {
        const number = getI32(idNumbers, slot) - 1;
        if (number < 0) {
          setI32(idKeys, slot, x);
          setI32(idNumbers, slot, numbers + 1);
          setI32(listed, k++, numbers++);
          break;
        }
        if (getI32(idKeys, slot) === x) {
          setI32(listed, k++, number);
          break;
        }
      }
    }
  }
  return numbers;
}

/** EvidenceSets.indexedPairSum over the D groups (strictly sorted sets, so a set lists an ID once). */
function indexedPairSum(D: i32): f64 {
  let total = 0;
  for (let g = 0; g < D; g++) total += getI32(groupEnd, g) - getI32(groupStart, g);
  const slots = numberIds(D, total);
  memory.fill(listStart, 0, <usize>(slots + 1) << 2);
  for (let k = 0; k < total; k++) {
    const x = getI32(listed, k) + 1;
    setI32(listStart, x, getI32(listStart, x) + 1);
  }
  for (let x = 0; x < slots; x++) setI32(listStart, x + 1, getI32(listStart, x + 1) + getI32(listStart, x));
  for (let x = 0; x < slots; x++) setI32(cursor, x, getI32(listStart, x));
  let k = 0;
  for (let g = 0; g < D; g++) {
    for (let at = getI32(groupStart, g); at < getI32(groupEnd, g); at++) {
      const x = getI32(listed, k++);
      const y = getI32(cursor, x);
      setI32(lists, y, g);
      setI32(cursor, x, y + 1);
    }
  }
  for (let x = 0; x < slots; x++) setI32(cursor, x, getI32(listStart, x));
  const words = (D + 31) >>> 5;
  memory.fill(stamp, 0xff, <usize>D << 2);
  memory.fill(met, 0, <usize>words << 2);
  let sum: f64 = 0;
  k = 0;
  for (let g = 0; g < D; g++) {
    const cg = <f64>getI32(groupCount, g);
    sum += (cg * (cg - 1)) / 2;
    // The groups after g sharing one of its IDs (g is at its lists' cursors: groups are visited in
    // order), marked in a bitset over groups and read back from it in ascending order.
    const lg = getI32(groupEnd, g) - getI32(groupStart, g);
    for (let end = k + lg; k < end; k++) {
      const x = getI32(listed, k);
      const listEnd = getI32(listStart, x + 1);
      const from = getI32(cursor, x) + 1;
      setI32(cursor, x, from);
      for (let y = from; y < listEnd; y++) {
        const h = getI32(lists, y);
        if (getI32(stamp, h) === g) {
          setI32(shared, h, getI32(shared, h) + 1);
          continue;
        }
        setI32(stamp, h, g);
        setI32(shared, h, 1);
        setI32(met, h >>> 5, getI32(met, h >>> 5) | (1 << (h & 31)));
      }
    }
    for (let w = (g + 1) >>> 5; w < words; w++) {
      let bits = getI32(met, w);
      if (bits === 0) continue;
      setI32(met, w, 0);
      while (bits !== 0) {
        const h = (w << 5) + ctz(bits);
        bits &= bits - 1;
        const inter = getI32(shared, h);
        const lh = getI32(groupEnd, h) - getI32(groupStart, h);
        sum += cg * <f64>getI32(groupCount, h) * (<f64>inter / <f64>(lg + lh - inter));
      }
    }
  }
  return sum;
}

/** Per case b < cases, with its entries at b · stride: the sum over its run pairs (0 below two entries). */
export function blockSums(cases: i32, stride: i32): void {
  for (let b = 0; b < cases; b++) {
    const count = getI32(entryCounts, b);
    let sum: f64 = 0;
    if (count >= 2) {
      const groups = group(b * stride, count);
      sum = groups > INDEXED_SETS ? indexedPairSum(groups) : maskedPairSum(groups < 0 ? -groups : groups);
    }
    store<f64>(sums + (<usize>b << 3), sum);
  }
}

export function heapBase(): usize {
  return __heap_base;
}
