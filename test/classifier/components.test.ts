// The classifier's building blocks, checked against the tables and rules of docs/classifier.md.
import { describe, expect, it } from "vitest";
import {
  classify,
  ClassifierConfigError,
  DEFAULT_CONFIG,
  extractEntities,
  extractFeatures,
  formatFixed2,
  normalizeWord,
  parseConfigAssignments,
  validateClassifierConfig,
} from "../../src/core/classifier/index.js";
import { fingerprint, simpleLower, splitFields } from "../../src/core/classifier/text.js";
import { STOPWORDS } from "../../src/core/classifier/word-lists.js";

const tokensOf = (text: string): string[] => [...extractFeatures(text).tokens].sort();
const valuesOf = (text: string): string[] => [...extractFeatures(text).values].sort();

describe("text primitives (§2, §8.1, §8.2)", () => {
  it("splits on Go's whitespace set: NEL and NBSP are spaces, the BOM is not", () => {
    expect(splitFields("\u0085 a\u00a0b\u2003c\ufeffd \u3000")).toEqual(["a", "b", "c\ufeffd"]);
  });

  it("lower-cases per code point with the simple mapping", () => {
    expect(simpleLower("İstanbul")).toBe("istanbul");
    expect(simpleLower("ΟΔΟΣ")).toBe("οδοσ");
    expect(simpleLower("ÀÉÎ Straße")).toBe("àéî straße");
    expect(tokensOf("İstanbul office")).toEqual(["istanbul", "offic"]);
  });

  it("normalises whitespace runs for the identity check", () => {
    expect(fingerprint("  We\tuse\r\n Postgres. ")).toBe("we use postgres.");
  });
});

describe("normalizeWord (§3.6)", () => {
  const TABLE: [string, string][] = [
    ["entries", "entry"],
    ["services", "servic"],
    ["postgres", "postgr"],
    ["nats", "nat"],
    ["tls", "tls"],
    ["does", "doe"],
    ["used", "used"],
    ["using", "using"],
    ["doing", "doing"],
    ["being", "being"],
    ["going", "going"],
    ["deprecated", "deprecat"],
    ["retired", "retir"],
    ["moved", "mov"],
    ["switched", "switch"],
    ["migrated", "migrat"],
    ["instead", "instead"],
    ["anymore", "anymor"],
    ["rebuilt", "rebuilt"],
    ["class", "clas"],
    ["uses", "use"],
    ["stopped", "stop"],
    ["jazz", "jaz"],
    ["code", "cod"],
    ["merge", "merg"],
    ["cache", "cach"],
    ["wrote", "writ"],
    ["kept", "keep"],
    ["seconds", "sec"],
    ["hours", "hr"],
    ["requests", "req"],
    ["milliseconds", "ms"],
    ["percent", "percent"],
    ["minutes", "minut"],
    ["megabytes", "megabyt"],
  ];
  it.each(TABLE)("%s → %s", (input, output) => {
    expect(normalizeWord(input)).toBe(output);
  });
});

describe("token extraction (§3.2–§3.5)", () => {
  it("tokenizes ASCII letter runs and dotted/coloned digit runs only", () => {
    expect(extractFeatures("café don't req/s 0.6b 1.22. :8002").tokens).toEqual(new Set(["caf", "req", "0.6", "1.22", "8002"]));
  });

  it("rewrites am/pm times and zero-padded hours", () => {
    const times = (text: string): string[] => tokensOf(text).filter((t) => t.includes(":"));
    expect(times("at 2am")).toEqual(["2:00"]);
    expect(times("at 12am")).toEqual(["0:00"]);
    expect(times("at 12pm")).toEqual(["12:00"]);
    expect(times("at 2:30pm")).toEqual(["14:30"]);
    expect(times("at 2 am")).toEqual(["2:00"]);
    expect(times("at 13pm")).toEqual(["13:00"]);
    expect(times("at 02:00")).toEqual(["2:00"]);
    expect(times("at 10:02:00")).toEqual(["10:2:00"]);
    expect(times("at 2\vam")).toEqual([]); // vertical tab is not in the am/pm gap set
    expect(times("at 123am")).toEqual([]);
  });

  it("marks quoted tokens as values, pairing contraction apostrophes as the reference does", () => {
    expect(valuesOf("we don't use bob's tool")).toEqual(["bob", "use"]);
    expect(valuesOf('the flag "fast path" and `turbo` mode')).toEqual(["fast", "path", "turbo"]);
    expect(valuesOf(`a "${"x".repeat(81)}" b`)).toEqual([]);
  });

  it("maps number words to digits and drops single digits", () => {
    expect(tokensOf("twenty five replicas")).toEqual(["20", "replica"]);
    expect(valuesOf("seven thousand users")).toEqual(["1000"]);
  });

  it("sets the negation flag from raw tokens, stopwords included", () => {
    expect(extractFeatures("we do not use it").negated).toBe(true);
    expect(extractFeatures("it won't start").negated).toBe(true);
    expect(extractFeatures("it can't start").negated).toBe(false);
    expect(extractFeatures("never on fridays").tokens.has("never")).toBe(true);
  });

  it("lets exactly the 38 listed stopwords through as content tokens (stopword test after stemming)", () => {
    const survivors = [...STOPWORDS].filter((w) => extractFeatures(w).tokens.size > 0).map((w) => [...extractFeatures(w).tokens][0]);
    expect(survivors.sort()).toEqual(
      (
        "amaz awesom becaus befor cheer com congrat congratulation doe dur goodby hav mak mayb min nic non nop " +
        "onc perhap pleas sam shal sinc som sound stil sur ther thes thi thos wel wer wher whil whos wil"
      ).split(" "),
    );
  });

  it("keeps the stopwords that only match before normalisation", () => {
    expect(tokensOf("amazing because does have this where will still")).toEqual(["amaz", "becaus", "doe", "hav", "stil", "thi", "wher", "wil"]);
    expect(tokensOf("per via through throughout kept")).toEqual([]);
  });
});

describe("entity extraction (§3.1)", () => {
  it("skips a sentence-initial single proper noun without mid-sentence evidence", () => {
    expect(extractEntities("Postmark is deprecated for outbound email.")).toEqual([]);
    expect(extractEntities("Postmark is fine. We chose Postmark.")).toEqual(["postmark"]);
  });

  it("keeps self-evident names and hyphenated names as one word", () => {
    expect(extractEntities("Qwen3 runs well")).toEqual(["qwen3"]);
    expect(extractEntities("We use Qwen3-Reranker-0.6B on Postgres-backed storage.")).toEqual(["qwen3-reranker-0.6b", "postgres-backed"]);
  });

  it("strips possessives and treats a colon as a sentence end", () => {
    expect(extractEntities("We rely on Stripe's API.")).toEqual(["stripe api"]);
    expect(extractEntities("Decision: Kafka stays")).toEqual([]);
  });

  it("drops spans of five words or more and spans made only of calendar words", () => {
    expect(extractEntities("we met Alpha Bravo Charlie Delta Echo there")).toEqual([]);
    expect(extractEntities("we met Alpha Bravo Charlie Delta there")).toEqual(["alpha bravo charlie delta"]);
    expect(extractEntities("due on Friday or in June")).toEqual([]);
  });

  it("skips bracketed scaffolding without resetting the sentence start", () => {
    expect(extractEntities("[1] Redis holds sessions")).toEqual([]);
    expect(extractEntities("[note here] we use Redis")).toEqual(["redis"]);
  });

  it("keeps at most 12 distinct entities", () => {
    const names = Array.from({ length: 15 }, (_, i) => `Name${String.fromCharCode(97 + i)}x`);
    const entities = extractEntities(`we saw ${names.join(" and ")} and Namebx.`);
    expect(entities).toEqual(names.slice(0, 12).map((n) => n.toLowerCase()));
  });
});

describe("formatFixed2 (Go's %.2f)", () => {
  it("rounds exact ties to even and agrees with toFixed elsewhere", () => {
    expect([0.125, 0.375, 0.625, 0.875].map(formatFixed2)).toEqual(["0.12", "0.38", "0.62", "0.88"]);
    expect([0, 1, 0.2, 2 / 3, 5 / 6, 0.5, 4 / 7, 0.005].map(formatFixed2)).toEqual(["0.00", "1.00", "0.20", "0.67", "0.83", "0.50", "0.57", "0.01"]);
  });
});

describe("config", () => {
  it("has the shipped defaults", () => {
    expect(DEFAULT_CONFIG).toEqual({ overlapFloor: 0.5, residueMax: 2, negOverlapFloor: 0.6, aliasPrefixMin: 4 });
    expect(Object.isFrozen(DEFAULT_CONFIG)).toBe(true);
  });

  it("fills left-out fields from the defaults", () => {
    expect(validateClassifierConfig({ residueMax: 1 })).toEqual({ ...DEFAULT_CONFIG, residueMax: 1 });
  });

  it.each([
    [{ overlapFloor: 0, residueMax: 0, negOverlapFloor: 0, aliasPrefixMin: 0 }, /overlapFloor/],
    [{ overlapFloor: -0.1 }, /overlapFloor must be a fraction/],
    [{ overlapFloor: 1.5 }, /overlapFloor/],
    [{ negOverlapFloor: Number.NaN }, /negOverlapFloor/],
    [{ residueMax: -1 }, /residueMax must be an integer/],
    [{ residueMax: 1.5 }, /residueMax/],
    [{ aliasPrefixMin: 0 }, /aliasPrefixMin must be an integer ≥ 1/],
    [{ aliasPrefixMin: "4" }, /aliasPrefixMin/],
    [{ overlapFlor: 0.5 }, /unknown field "overlapFlor"/],
    [null, /must be an object/],
  ])("rejects %j", (config, message) => {
    expect(() => validateClassifierConfig(config)).toThrow(ClassifierConfigError);
    expect(() => validateClassifierConfig(config)).toThrow(message);
  });

  it("parses key=value assignments, accepting snake_case and Go-style names", () => {
    expect(parseConfigAssignments(["overlap_floor=0.4", "ResidueMax=3", "aliasPrefixMin=5"])).toEqual({
      overlapFloor: 0.4,
      residueMax: 3,
      negOverlapFloor: 0.6,
      aliasPrefixMin: 5,
    });
    expect(() => parseConfigAssignments(["overlapFloor"])).toThrow(/key=value/);
    expect(() => parseConfigAssignments(["floor=0.4"])).toThrow(/unknown key "floor"/);
    expect(() => parseConfigAssignments(["residueMax=two"])).toThrow(/residueMax/);
    expect(() => parseConfigAssignments(["residueMax="])).toThrow(/residueMax/);
  });

  it("changes verdicts the way the thresholds say", () => {
    const [n, o] = ["Jobs time out after 15 min.", "Jobs time out after 15 minutes."]; // overlap 0.75
    expect(classify(n, o, { ...DEFAULT_CONFIG, overlapFloor: 0.8 }).reason).toBe("overlap 0.75 below floor");
    const [a, b] = ["Sessions live in Postgres.", "Sessions live in PostgreSQL."];
    expect(classify(a, b).class).toBe("restatement");
    expect(classify(a, b, { ...DEFAULT_CONFIG, aliasPrefixMin: 7 })).toEqual({
      class: "update",
      reason: 'value swap: "postgresql" -> "postgr"',
    });
  });
});
