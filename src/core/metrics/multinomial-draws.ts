// The bootstrap's multinomial draws in WebAssembly (its source wasm/multinomial.ts, its bytes
// multinomial-wasm.ts): the counts binomial.ts's multinomialCounts draws from prng.ts's stream
// (seed, b), the same to the bit (test/core/metrics/multinomial-draws.test.ts), without the
// JavaScript compiler's work: on the GRPO-shaped bench the draws' loops were a tenth of the main
// thread, and as much again in V8's optimizing compiles. binomial.ts remains their definition.
import { instantiateSized, WASM_OWN_BYTES } from "../wasm.js";
import { POWER_WAYS, STIRLING_TAIL } from "./binomial.js";
import { MULTINOMIAL_WASM } from "./multinomial-wasm.js";

interface MultinomialExports {
  heapBase(): number;
  setLayout(groups: number, sizes: number, counts: number, drawn: number, q: number, trials: number, powers: number, ways: number, stirling: number): void;
  draw(seed: number, stream: number, n: number): number;
}

/** Multinomial draws over groups of fixed sizes, one resample at a time (one instance per bootstrap loop). */
export class MultinomialDraws {
  /** Resample's count per group, valid at the groups listed in `drawn`. */
  readonly counts: Float64Array;
  /** The groups drawn at least once, in group order (the first `draw` returned of them). */
  readonly drawn: Int32Array;
  private readonly wasm: MultinomialExports;

  constructor(sizes: ArrayLike<number>) {
    const G = sizes.length;
    // sizes, counts, q (f64 each); drawn (i32); per way an i32 trial count and an f64 power; the Stirling table.
    const own = WASM_OWN_BYTES;
    const at = { sizes: own, counts: own + 8 * G, q: own + 16 * G, stirling: own + 24 * G };
    const powersAt = at.stirling + 8 * STIRLING_TAIL.length;
    const trialsAt = powersAt + 8 * POWER_WAYS * G;
    const drawnAt = trialsAt + 4 * POWER_WAYS * G;
    const { exports, buffer } = instantiateSized<MultinomialExports>(MULTINOMIAL_WASM, "multinomial", drawnAt + 4 * G - own, { log: Math.log, pow: Math.pow });
    this.wasm = exports;
    new Float64Array(buffer, at.sizes, G).set(sizes);
    new Float64Array(buffer, at.stirling, STIRLING_TAIL.length).set(STIRLING_TAIL);
    this.counts = new Float64Array(buffer, at.counts, G);
    this.drawn = new Int32Array(buffer, drawnAt, G);
    this.wasm.setLayout(G, at.sizes, at.counts, drawnAt, at.q, trialsAt, powersAt, POWER_WAYS, at.stirling);
  }

  /** multinomialCounts of `n` draws (the sizes' sum) from prng.ts's stream (seed, b): how many groups were drawn. */
  draw(seed: number, b: number, n: number): number {
    return this.wasm.draw(seed | 0, b | 0, n);
  }
}
