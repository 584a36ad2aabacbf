// SHA-256 in plain TypeScript (tests check it against node:crypto), and the digest of a text as
// content digests and section revisions need it. Text is encoded as Python's strict UTF-8 codec
// does: a lone surrogate raises instead of becoming U+FFFD as TextEncoder would.

import { createHash } from "node:crypto";
import { EvidenceValueError } from "./errors.js";
import { isWellFormed, pythonStringRepr } from "../python/text.js";

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** Runs the compression function over the 64-byte blocks of `bytes` from `offset` to `end`. */
function compress(h: Int32Array, w: Int32Array, bytes: Uint8Array, offset: number, end: number): void {
  let h0 = h[0]!;
  let h1 = h[1]!;
  let h2 = h[2]!;
  let h3 = h[3]!;
  let h4 = h[4]!;
  let h5 = h[5]!;
  let h6 = h[6]!;
  let h7 = h[7]!;
  for (let at = offset; at < end; at += 64) {
    for (let t = 0; t < 16; t++) {
      const i = at + t * 4;
      w[t] = (bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let hh = h7;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[t]! + w[t]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + hh) | 0;
  }
  h[0] = h0;
  h[1] = h1;
  h[2] = h2;
  h[3] = h3;
  h[4] = h4;
  h[5] = h5;
  h[6] = h6;
  h[7] = h7;
}

const SCHEDULE = new Int32Array(64);

/** Lowercase hex SHA-256 of the bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  const h = Int32Array.from(INITIAL);
  // Whole blocks straight from the input; the rest, 0x80, zero padding and the 64-bit big-endian
  // bit length in one or two final blocks.
  const whole = bytes.length - (bytes.length % 64);
  compress(h, SCHEDULE, bytes, 0, whole);
  const tail = new Uint8Array(bytes.length - whole + 9 > 64 ? 128 : 64);
  tail.set(bytes.subarray(whole));
  tail[bytes.length - whole] = 0x80;
  const bitLength = bytes.length * 8;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(tail.length - 4, bitLength >>> 0);
  compress(h, SCHEDULE, tail, 0, tail.length);
  let hex = "";
  for (let i = 0; i < 8; i++) hex += (h[i]! >>> 0).toString(16).padStart(8, "0");
  return hex;
}

/**
 * Python's `text.encode("utf-8")`: a lone surrogate raises with Python's own message (position in
 * code points) rather than being replaced.
 */
export function encodeUtf8Strict(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  let codePoints = 0;
  for (let i = 0; i < text.length; i++, codePoints++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (cp > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
        throw new EvidenceValueError(`'utf-8' codec can't encode character ${pythonStringRepr(text[i]!)} in position ${codePoints}: surrogates not allowed`);
      }
      cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (cp < 0x80) out[n++] = cp;
    else if (cp < 0x800) {
      out[n++] = 0xc0 | (cp >> 6);
      out[n++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      out[n++] = 0xe0 | (cp >> 12);
      out[n++] = 0x80 | ((cp >> 6) & 0x3f);
      out[n++] = 0x80 | (cp & 0x3f);
    } else {
      out[n++] = 0xf0 | (cp >> 18);
      out[n++] = 0x80 | ((cp >> 12) & 0x3f);
      out[n++] = 0x80 | ((cp >> 6) & 0x3f);
      out[n++] = 0x80 | (cp & 0x3f);
    }
  }
  return out.subarray(0, n);
}

/** Lowercase hex SHA-256 of the text's strict UTF-8 bytes. */
export function sha256OfText(text: string): string {
  // Without a lone surrogate Node's UTF-8 encoding is the strict codec's, and its SHA-256 is
  // several times faster than the TypeScript one (each document body and section is hashed).
  return isWellFormed(text) ? createHash("sha256").update(text, "utf8").digest("hex") : sha256Hex(encodeUtf8Strict(text));
}
