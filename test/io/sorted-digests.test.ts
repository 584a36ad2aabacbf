// The slice hash sorts its cases' digests (slice-kept.ts's sortedDigests): in exactly the order the
// string sort gives, whatever digits they share, so that every slice hash stays what it was.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sortedDigests } from "../../src/io/slice-kept.js";

const digest = (text: string): string => createHash("sha256").update(text).digest("hex");

describe("sortedDigests", () => {
  it("orders digests as sort() does, for lists short and long", () => {
    for (const n of [0, 1, 2, 3, 17, 1000, 70_000]) {
      const digests = Array.from({ length: n }, (_, i) => digest(`case ${i}`));
      expect(sortedDigests(digests)).toEqual([...digests].sort());
    }
  });

  it("orders digests that share their leading digits, repeats among them, by the whole digest", () => {
    const base = Array.from({ length: 400 }, (_, i) => digest(`base ${i}`));
    // Groups sharing their first 8, 9, 12 and 63 digits with another digest, and exact repeats.
    const digests = base.flatMap((d, i) => [
      d,
      d.slice(0, 8 + (i % 4) * 1) + digest(`tail ${i}`).slice(8 + (i % 4)),
      d.slice(0, 63) + "0123456789abcdef"[i % 16]!,
      ...(i % 7 === 0 ? [d] : []),
    ]);
    const shuffled = digests
      .map((d, i) => [(i * 7919) % digests.length, d] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, d]) => d);
    const sorted = sortedDigests(shuffled);
    expect(sorted).toEqual([...shuffled].sort());
    // The input is left as it was.
    expect(shuffled).not.toEqual(sorted);
  });
});
