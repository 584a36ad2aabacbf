import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countLines, hashId, LineIdSet, LineRereader, type IdHash } from "../../src/io/line-id-set.js";

/** A set whose ids live in an array indexed by line, with the given hash. */
function setOver(hash?: IdHash, capacity = 400_000) {
  const byLine: string[] = [];
  const set = new LineIdSet((line) => byLine[line]!, capacity, hash);
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
        const { set, add } = setOver(hash, strings.length);
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
    const real = setOver(undefined, 101_000);
    let added = 0;
    for (let i = 0; i < 100_000; i++) if (real.add(`pair-${i}`)) added++;
    expect(added).toBe(100_000);
    // A 15-bit fingerprint beside a 17-bit line: about one slot probed in 2^15 matches by chance.
    expect(real.set.rereads).toBeLessThan(100);
    const chance = real.set.rereads;
    for (let i = 0; i < 100_000; i += 1000) expect(real.add(`pair-${i}`)).toBe(false);
    expect(real.set.rereads - chance).toBeGreaterThanOrEqual(100);
    expect(real.set.size).toBe(100_000);

    const forced = setOver((_, out) => out.set([1, 0]));
    for (const id of ["x", "y", "z"]) expect(forced.add(id)).toBe(true);
    expect(forced.set.rereads).toBe(0 + 1 + 2);
    expect(forced.add("y")).toBe(false);
    expect(forced.set.size).toBe(3);
  });

  it("stays exact over many ids whose fingerprints collide in a few values", () => {
    // 4 fingerprints and 2 homes for 20,000 ids: long runs of equal fingerprints, each compared by id.
    const few: IdHash = (id, out) => {
      let h = 0;
      for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
      out[0] = (h & 3) << 30;
      out[1] = (h & 4) << 29;
    };
    const { set, add } = setOver(few, 30_000);
    for (let i = 0; i < 20_000; i++) expect(add(`id-${i}`)).toBe(true);
    for (let i = 0; i < 20_000; i += 997) expect(add(`id-${i}`)).toBe(false);
    expect(add("id-20000")).toBe(true);
    expect(set.size).toBe(20_001);
  });

  it("holds as many ids as its capacity in about 4.4 bytes each, and says so when given a line beyond it", () => {
    const { set, add } = setOver(undefined, 300_000);
    for (let i = 0; i < 300_000; i++) add(`id-${i}`);
    expect(set.size).toBe(300_000);
    for (let i = 0; i < 300_000; i += 7919) expect(set.add(`id-${i}`, 1)).toBe(false);
    // One 32-bit slot an id (19 bits of line, 13 of fingerprint), at most 90% full.
    expect(set.bytes / set.size).toBeLessThan(4.5);
    expect(() => add("one more")).toThrow(/changed while it was read/);
    // More lines than 22 bits: 64-bit slots (53 usable bits).
    const wide = new LineIdSet((line) => `line ${line}`, 2 ** 23);
    expect(wide.add("line 5", 5)).toBe(true);
    expect(wide.add("line 5", 2 ** 23)).toBe(false);
    expect(wide.add("line 6", 6)).toBe(true);
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

  it("counts a file's lines as the line reader numbers them: a final line without a newline counts", () => {
    const dir = mkdtempSync(join(tmpdir(), "mari-rereader-"));
    try {
      const path = join(dir, "lines.txt");
      for (const [text, lines] of [
        ["", 0],
        ["a", 1],
        ["a\n", 1],
        ["\n\n", 2],
        ["a\r\nb", 2],
        ["x\n".repeat(70_000), 70_000],
      ] as const) {
        writeFileSync(path, text);
        expect(countLines(path)).toBe(lines);
      }
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
