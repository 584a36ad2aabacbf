// AssemblyScript, compiled by scripts/build-wasm.mjs into src/core/metrics/multinomial-wasm.ts
// (the module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// The bootstrap's multinomial draws (src/core/metrics/multinomial-draws.ts): resample b's counts of
// the signature groups, drawn exactly as src/core/metrics/binomial.ts draws them from
// src/core/metrics/prng.ts's stream (seed, b), operation for operation, so every count is the
// same. Math.log and Math.pow are JavaScript's own, imported (V8 calls them directly); sqrt,
// floor and abs are WebAssembly's, exact as JavaScript's are. test/core/metrics/multinomial-draws.test.ts
// holds the two to the same counts.

@external("env", "log") declare function log(x: f64): f64;
@external("env", "pow") declare function pow(x: f64, y: f64): f64;

// The groups and their draws: f64 sizes, f64 counts (valid at the drawn groups), i32 drawn groups
// in group order; the inversion powers remembered per group (binomial.ts's POWER_WAYS): f64
// q, then per way an i32 trial count and an f64 power; the Stirling tail of k < 10, f64 each.
let groups: i32 = 0;
let sizes: usize = 0;
let counts: usize = 0;
let drawn: usize = 0;
let qOf: usize = 0;
let trials: usize = 0;
let powers: usize = 0;
let stirlingTable: usize = 0;

/** Entries of the powers remembered per group (binomial.ts's POWER_WAYS). */
let powerWays: i32 = 0;

export function setLayout(groupCount: i32, sizeColumn: usize, countColumn: usize, drawnColumn: usize, qColumn: usize, trialColumn: usize, powerColumn: usize, ways: i32, stirling: usize): void {
  groups = groupCount;
  sizes = sizeColumn;
  counts = countColumn;
  drawn = drawnColumn;
  qOf = qColumn;
  trials = trialColumn;
  powers = powerColumn;
  powerWays = ways;
  stirlingTable = stirling;
  for (let g = 0; g < groups; g++) store<f64>(qOf + (<usize>g << 3), NaN);
}

// prng.ts: Mulberry32 seeded by mixSeed(seed, stream).
let state: u32 = 0;

@inline function mixSeed(seed: i32, stream: i32): u32 {
  let h = <u32>((seed * <i32>0x9e3779b1) ^ (stream * <i32>0x85ebca6b));
  h ^= h >>> 16;
  h = h * 0x85ebca6b;
  h ^= h >>> 13;
  h = h * 0xc2b2ae35;
  h ^= h >>> 16;
  return h;
}

@inline function nextUint32(): u32 {
  const t0 = state + 0x6d2b79f5;
  state = t0;
  let t = t0;
  t = (t ^ (t >>> 15)) * (t | 1);
  t ^= t + (t ^ (t >>> 7)) * (t | 61);
  return t ^ (t >>> 14);
}

/** binomial.ts's uniform53. */
@inline function uniform53(): f64 {
  const hi = nextUint32() >>> 5;
  const lo = nextUint32() >>> 6;
  return (<f64>hi * 67108864 + <f64>lo) / 9007199254740992;
}

@inline function stirlingTail(k: f64): f64 {
  if (k < 10) return load<f64>(stirlingTable + (<usize>k << 3));
  const k1 = k + 1;
  const sq = k1 * k1;
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / sq) / sq) / k1;
}

/** The current group's pow(q, N), remembered per group and trial count modulo `powerWays` (binomial.ts's POWER_WAYS). */
let group: i32 = 0;

@inline function powerOf(q: f64, N: f64): f64 {
  const g = <usize>group;
  if (load<f64>(qOf + (g << 3)) != q) {
    store<f64>(qOf + (g << 3), q);
    for (let w = 0; w < powerWays; w++) store<i32>(trials + ((g * <usize>powerWays + <usize>w) << 2), -1);
  }
  const at = g * <usize>powerWays + <usize>(<i32>N & (powerWays - 1));
  if (load<i32>(trials + (at << 2)) != <i32>N) {
    store<i32>(trials + (at << 2), <i32>N);
    store<f64>(powers + (at << 3), pow(q, N));
  }
  return load<f64>(powers + (at << 3));
}

/** binomial.ts's binomialInversion. */
function binomialInversion(N: f64, part: f64, whole: f64): f64 {
  const p = part / whole;
  const q = 1 - p;
  const s = p / q;
  const a = (N + 1) * s;
  const r0 = powerOf(q, N);
  for (;;) {
    let u = uniform53();
    let r = r0;
    let k: f64 = 0;
    while (u > r && k <= N) {
      u -= r;
      k++;
      r *= a / k - s;
    }
    if (k <= N) return k;
  }
  // Not reached: the loop returns.
  return unreachable();
}

/** binomial.ts's binomialRejection (BTRS). */
function binomialRejection(N: f64, part: f64, whole: f64): f64 {
  const p = part / whole;
  const spq = Math.sqrt(N * p * (1 - p));
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = N * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const r = p / (1 - p);
  const alpha = (2.83 + 5.1 / b) * spq;
  const m = Math.floor((N + 1) * p);
  // binomial.ts computes bound0 before the loop; most draws end at the squeeze without it, so it is
  // computed here when first needed: the same value (a function of N and p alone), fewer logs.
  let bound0: f64 = NaN;
  for (;;) {
    const u = uniform53() - 0.5;
    let v = uniform53();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > N) continue;
    if (us >= 0.07 && v <= vr) return k;
    if (isNaN(bound0)) bound0 = (m + 0.5) * log((m + 1) / (r * (N - m + 1))) + stirlingTail(m) + stirlingTail(N - m);
    v = log((v * alpha) / (a / (us * us) + b));
    const bound = bound0 + (N + 1) * log((N - m + 1) / (N - k + 1)) + (k + 0.5) * log((r * (N - k + 1)) / (k + 1)) - stirlingTail(k) - stirlingTail(N - k);
    if (v <= bound) return k;
  }
  // Not reached: the loop returns.
  return unreachable();
}

/** binomial.ts's binomial. */
function binomial(N: f64, part: f64, whole: f64): f64 {
  if (N <= 0 || part <= 0) return 0;
  if (part >= whole) return N;
  if (2 * part > whole) return N - binomial(N, whole - part, whole);
  return N * (part / whole) < 10 ? binomialInversion(N, part, whole) : binomialRejection(N, part, whole);
}

/**
 * binomial.ts's multinomialCounts of `n` draws over the groups, from prng.ts's stream (seed,
 * stream): the counts at `counts`, the groups drawn at `drawn`; returns how many were drawn.
 */
export function draw(seed: i32, stream: i32, n: f64): i32 {
  state = mixSeed(seed, stream);
  let trialsLeft = n;
  let mass = n;
  let distinct = 0;
  for (let s = 0; s < groups && trialsLeft > 0; s++) {
    const size = load<f64>(sizes + (<usize>s << 3));
    group = s;
    const k = binomial(trialsLeft, size, mass);
    mass -= size;
    trialsLeft -= k;
    store<f64>(counts + (<usize>s << 3), k);
    if (k > 0) {
      store<i32>(drawn + (<usize>distinct << 2), s);
      distinct++;
    }
  }
  return distinct;
}

/** Where the memory free for the caller begins (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}
