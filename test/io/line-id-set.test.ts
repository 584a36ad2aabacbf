import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashId, LineIdSet, LineRereader, type IdHash } from "../../src/io/line-id-set.js";

/** A set whose ids live in an array indexed by line, with the given hash. */
function setOver(hash?: IdHash) {
  const byLine: string[] = [];
  const set = new LineIdSet((line) => byLine[line]!, hash);
  let line = 0;
  return {
    set,
    add(id: string): boolean {
      line++;
      byLine[line] = id;
      return set.add(id, line);
    },
  };
}

describe("LineIdSet", () => {
  it("answers exactly as a Set<string> does, with the real hash and with hashes forced to collide", () => {
    const piece = fc.constantFrom("a", "b", "é", "\ud800", "\udc00", "😀", "#", "1");
    const ids = fc.array(
      fc.array(piece, { maxLength: 5 }).map((p) => p.join("")),
      { maxLength: 300 },
    );
    // Every id the same fingerprint and table (every lookup compares ids), or only a few of each.
    const hashes: (IdHash | undefined)[] = [undefined, (_, out) => out.fill(7), (id, out) => out.set([id.length % 3, id.length % 2])];
    fc.assert(
      fc.property(ids, fc.constantFrom(...hashes), (strings, hash) => {
        const { set, add } = setOver(hash);
        const plain = new Set<string>();
        for (const s of strings) {
          expect(add(s)).toBe(!plain.has(s));
          plain.add(s);
        }
        expect(set.size).toBe(plain.size);
      }),
      { numRuns: 300 },
    );
  });

  it("reads an earlier id back only on a fingerprint match: every true duplicate, and ids that collide", () => {
    const real = setOver();
    let added = 0;
    for (let i = 0; i < 100_000; i++) if (real.add(`pair-${i}`)) added++;
    expect(added).toBe(100_000);
    expect(real.set.rereads).toBeLessThan(5); // 38 bits of hash: n²/2³⁹ ≈ 0.00002 expected
    for (let i = 0; i < 100_000; i += 1000) expect(real.add(`pair-${i}`)).toBe(false);
    expect(real.set.rereads).toBeGreaterThanOrEqual(100);
    expect(real.set.size).toBe(100_000);

    const forced = setOver((_, out) => out.set([1, 0]));
    for (const id of ["x", "y", "z"]) expect(forced.add(id)).toBe(true);
    expect(forced.set.rereads).toBe(0 + 1 + 2);
    expect(forced.add("y")).toBe(false);
    expect(forced.set.size).toBe(3);
  });

  it("grows its tables past their first size and keeps every id (real hash)", () => {
    const { set, add } = setOver();
    for (let i = 0; i < 300_000; i++) add(`id-${i}`);
    expect(set.size).toBe(300_000);
    for (let i = 0; i < 300_000; i += 7919) expect(add(`id-${i}`)).toBe(false);
    // 8 bytes a slot, at least 68% full after a growth: under 12 bytes an id.
    expect(set.bytes / set.size).toBeLessThan(12);
  });

  it("hashes code units: strings that differ only in a lone surrogate hash apart", () => {
    const of = (id: string): number[] => {
      const out = new Uint32Array(2);
      hashId(id, out);
      return [...out];
    };
    expect(of("a\ud800")).not.toEqual(of("a\udc00"));
    expect(of("id-1")).toEqual(of("id-1"));
  });
});

describe("LineRereader", () => {
  it("reads any line back by number: long lines, CRLF, a missing final newline, across its buffer", () => {
    const dir = mkdtempSync(join(tmpdir(), "mari-rereader-"));
    try {
      const lines = Array.from({ length: 500 }, (_, i) => (i % 97 === 5 ? `long-${i}-${"é".repeat(30_000)}` : i % 3 === 0 ? `line ${i}\r` : `line ${i}`));
      const text = lines.join("\n");
      const path = join(dir, "lines.txt");
      writeFileSync(path, text);
      const reader = new LineRereader(path);
      let offset = 0;
      lines.forEach((line, i) => {
        reader.note(i + 1, offset);
        offset += Buffer.byteLength(line) + 1;
      });
      for (const lineNo of [1, 2, 63, 64, 65, 66, 100, 102, 199, 200, 391, 499, 500]) {
        expect(reader.line(lineNo).toString("utf8")).toBe(lines[lineNo - 1]);
      }
      reader.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says the file changed when a line read before is no longer there", () => {
    const dir = mkdtempSync(join(tmpdir(), "mari-rereader-"));
    try {
      const path = join(dir, "lines.txt");
      writeFileSync(path, "a\nb\nc\n");
      const reader = new LineRereader(path);
      reader.note(1, 0);
      writeFileSync(path, "a\n");
      expect(() => reader.line(3)).toThrow(/changed while it was read/);
      reader.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
