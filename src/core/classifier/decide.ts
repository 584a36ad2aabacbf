// The decision procedure (docs/classifier.md) over two texts' features, with the reason
// strings of §5 byte for byte.
import type { ClassifierConfig } from "./config.js";
import { DEFAULT_CONFIG } from "./config.js";
import type { TextFeatures } from "./features.js";
import { CUE_WORDS, RETRO_CUES } from "./word-lists.js";

export type RevisionClass = "distinct" | "restatement" | "update";

export interface Verdict {
  class: RevisionClass;
  reason: string;
}

const IDENTICAL: Verdict = Object.freeze({ class: "restatement", reason: "identical content" });
const NO_CONTENT: Verdict = Object.freeze({ class: "distinct", reason: "no content tokens" });
const NEGATION_FLIP: Verdict = Object.freeze({ class: "update", reason: "polarity: negation flip" });

/**
 * Go's `%.2f` for a non-negative float: round the exact binary value to nearest, ties to even.
 * `toFixed` agrees except on exact ties, which for two decimals are the odd multiples of 1/8
 * (x·8 is exact, being a power-of-two scaling); `toFixed` rounds those up.
 */
export function formatFixed2(x: number): string {
  const eighths = x * 8;
  if (Number.isInteger(eighths) && eighths % 2 === 1) {
    let hundredths = Math.floor(x * 100); // x·100 = odd·12.5, exact
    if (hundredths % 2 === 1) hundredths += 1;
    return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`;
  }
  return x.toFixed(2);
}

/** The first retro cue in list order (not text order) found anywhere in the new text, or "". */
export function findRetroCue(lowerText: string): string {
  for (const cue of RETRO_CUES) if (lowerText.includes(cue)) return cue;
  return "";
}

/** Equal after dropping one trailing `.0` and then every trailing `.` (so 10 = 10.0, 10 ≠ 10.00). */
function numericallyEqual(a: string, b: string): boolean {
  const canon = (t: string): string => {
    let s = t.endsWith(".0") ? t.slice(0, -2) : t;
    while (s.endsWith(".")) s = s.slice(0, -1);
    return s;
  };
  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
  return isDigit(a.charCodeAt(0)) && isDigit(b.charCodeAt(0)) && canon(a) === canon(b);
}

function isAlias(a: string, b: string, prefixMin: number): boolean {
  if (numericallyEqual(a, b)) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= prefixMin && longer.startsWith(shorter);
}

/**
 * Removes alias pairs (a from vNew, b from vOld). Upstream visits the pairs in Go map order, which
 * is random, and the result depends on it when one token aliases several on the other side (§8.7).
 * Here both sides are visited in byte order: each new token, in order, is paired with the first
 * still-present old token it aliases: the same greedy procedure as upstream, in a fixed order.
 */
function dropAliases(vNew: string[], vOld: string[], prefixMin: number): void {
  vNew.sort();
  vOld.sort();
  for (let i = 0; i < vNew.length; i++) {
    const a = vNew[i]!;
    for (let j = 0; j < vOld.length; j++) {
      if (isAlias(a, vOld[j]!, prefixMin)) {
        vNew.splice(i--, 1);
        vOld.splice(j, 1);
        break;
      }
    }
  }
}

export function classifyFeatures(n: TextFeatures, o: TextFeatures, config: Readonly<ClassifierConfig> = DEFAULT_CONFIG): Verdict {
  if (n.fingerprint === o.fingerprint) return IDENTICAL;
  const N = n.tokens;
  const O = o.tokens;
  if (N.size === 0 || O.size === 0) return NO_CONTENT;

  let shared = 0;
  let sharedNonCue = 0;
  let newNonCue = 0;
  let residNew = 0;
  const vNew: string[] = [];
  for (const t of N) {
    const cue = CUE_WORDS.has(t);
    if (!cue) newNonCue++;
    if (O.has(t)) {
      shared++;
      if (!cue) sharedNonCue++;
    } else if (n.values.has(t)) {
      vNew.push(t);
    } else if (!cue) {
      residNew++;
    }
  }
  const overlap = shared / Math.min(N.size, O.size);
  let sharedEntity = false;
  for (const e of n.entities) {
    if (o.entities.has(e)) {
      sharedEntity = true;
      break;
    }
  }
  if (overlap < config.overlapFloor || (!sharedEntity && shared < 2)) {
    return { class: "distinct", reason: `overlap ${formatFixed2(overlap)} below floor` };
  }

  // Value swap: a value present only on each side, with little else changed.
  if (vNew.length > 0) {
    let residOld = 0;
    const vOld: string[] = [];
    for (const t of O) {
      if (N.has(t)) continue;
      if (o.values.has(t)) vOld.push(t);
      else if (!CUE_WORDS.has(t)) residOld++;
    }
    if (vOld.length > 0) {
      // Residues were counted from the value sets before alias dropping: dropped aliases are not residue.
      dropAliases(vNew, vOld, config.aliasPrefixMin);
      if (vNew.length > 0 && vOld.length > 0 && residNew <= config.residueMax && residOld <= config.residueMax) {
        return { class: "update", reason: `value swap: "${vOld[0]}" -> "${vNew[0]}"` };
      }
    }
  }

  // Polarity: read only from the new side, and only with enough common ground.
  if (sharedEntity || shared >= 3) {
    const containment = sharedNonCue / Math.max(1, newNonCue);
    const cue = findRetroCue(n.lowerText);
    if (cue !== "" && containment >= config.negOverlapFloor && residNew <= config.residueMax) {
      return { class: "update", reason: `polarity: ${cue}` };
    }
    if (n.negated && !o.negated && containment >= Math.max(config.negOverlapFloor, 0.75) && residNew <= 1) {
      return NEGATION_FLIP;
    }
  }
  return { class: "restatement", reason: `overlap ${formatFixed2(overlap)}, no decisive change` };
}
