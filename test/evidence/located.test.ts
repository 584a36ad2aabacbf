// Refs, locators, validateLocatedEvidence and validateArtifactEvidence: docs/evidence.md.
import { describe, expect, it } from "vitest";
import {
  artifactEvidence,
  artifactRef,
  artifactRefKey,
  artifactToRevisionRef,
  defaultLocate,
  documentEvidenceRef,
  evidence,
  EvidenceValueError,
  jsonPointer,
  keyId,
  LocateError,
  locatedEvidence,
  mediaTimeRange,
  objectRef,
  objectRefKey,
  pageRegion,
  parsePythonJson,
  PyFloat,
  recordField,
  revisionRef,
  revisionRefKey,
  scopeRef,
  tableCell,
  textSpan,
  validateArtifactEvidence,
  validateLocatedEvidence,
  type Locator,
  type RevisionRef,
} from "../../src/core/evidence/index.js";

const ref = (objectId: string, revision = "1", scope: ReturnType<typeof scopeRef> | null = null): RevisionRef =>
  revisionRef({ object: objectRef({ namespace: "docs", object_id: objectId, scope }), revision });

/** Locates `locator` in `material` the way validateLocatedEvidence reports it. */
function outcome(material: unknown, locator: Locator | null, quote = ""): string {
  const item = locatedEvidence({ ref: ref("m"), locator, quote });
  const report = validateLocatedEvidence([item], { resolveMaterial: () => material });
  return report.accepted ? "valid" : `${report.issues[0]!.kind}: ${report.issues[0]!.detail}`;
}

describe("identity values (§2)", () => {
  it("strips and validates scope, object and revision refs", () => {
    const scope = scopeRef({ tenant: " acme " });
    expect(scope).toEqual({ tenant: "acme", space: "default" });
    expect(() => scopeRef({ tenant: " " })).toThrow("scope tenant and space are required");
    expect(() => scopeRef({ tenant: "a", space: "\t" })).toThrow("scope tenant and space are required");
    expect(() => objectRef({ namespace: "", object_id: "x" })).toThrow("object namespace and ID are required");
    expect(() => revisionRef({ object: objectRef({ namespace: "n", object_id: "x" }), revision: "  " })).toThrow("revision is required");
    const r = revisionRef({ object: objectRef({ namespace: " n ", object_id: " x ", scope }), revision: " 7 ", unit_id: " u " });
    expect(revisionRefKey(r)).toEqual(["acme", "default", "n", "x", "7", "u"]);
    expect(objectRefKey(objectRef({ namespace: "n", object_id: "x" }))).toEqual(["", "", "n", "x"]);
  });
  it("validates locators with the reference's messages (NaN passes, as in Python)", () => {
    expect(() => textSpan(-1, 2)).toThrow("text span is invalid");
    expect(() => textSpan(3, 2)).toThrow("text span is invalid");
    expect(textSpan(2, 2)).toEqual({ type: "TextSpan", start: 2, end: 2 });
    expect(textSpan(Number.NaN, Number.NaN).type).toBe("TextSpan");
    expect(() => jsonPointer("a/b")).toThrow("JSON pointer must be empty or start with '/'");
    expect(() => recordField(" ", "f")).toThrow("record ID and field are required");
    expect(recordField(" r ", "f").record_id).toBe(" r "); // checked stripped, stored as given
    expect(() => tableCell(0, -1)).toThrow("table cell coordinates must be non-negative");
    expect(() => pageRegion(0, [0, 0, 1, 1])).toThrow("page must be positive");
    expect(() => pageRegion(1, [2, 0, 1, 1])).toThrow("page region bounding box is invalid");
    expect(() => pageRegion(1, [0, 0, 1])).toThrow("not enough values to unpack (expected 4, got 3)");
    expect(() => pageRegion(1, [0, 0, 1, 1, 1])).toThrow("too many values to unpack (expected 4)");
    expect(() => mediaTimeRange(5, 4)).toThrow("media time range is invalid");
    expect(() => mediaTimeRange(-1, 4)).toThrow(EvidenceValueError);
  });
});

describe("default locator (§3)", () => {
  it("reproduces the repository's worked examples", () => {
    expect(outcome("Returns:14 days", textSpan(8, 15), "14 days")).toBe("valid");
    expect(outcome(parsePythonJson('{"plan": {"name": "enterprise"}}'), jsonPointer("/plan/name"), "enterprise")).toBe("valid");
  });
  it("uses the whole material without a locator, compared exactly", () => {
    expect(outcome("whole text", null, "whole text")).toBe("valid");
    expect(outcome("whole text", null, "whole")).toBe("quote_mismatch: resolved material does not match the supplied quote");
  });
  it("slices text spans in code points and raises IndexError(end) past the end", () => {
    expect(outcome("😀 refunds", textSpan(2, 9), "refunds")).toBe("valid");
    expect(outcome("Returns:14 days", textSpan(8, 16))).toBe("invalid_span: locator did not resolve: 16");
    expect(outcome({ a: 1 }, textSpan(0, 1))).toBe("invalid_span: locator did not resolve: TextSpan");
  });
  it("escapes JSON Pointer tokens (~1 then ~0) and looks up '' for a trailing slash", () => {
    const material = parsePythonJson('{"a/b": {"m~n": 1}, "": {"": "empty"}, "a": {"": "inner"}, "~1": "tilde-one"}');
    expect(defaultLocate(material, jsonPointer("/a~1b/m~0n"))).toBe(1);
    expect(defaultLocate(material, jsonPointer("/~01"))).toBe("tilde-one");
    expect(defaultLocate(material, jsonPointer("//"))).toBe("empty");
    expect(defaultLocate(material, jsonPointer("/a/"))).toBe("inner");
    expect(defaultLocate(material, jsonPointer(""))).toBe(material);
  });
  it("indexes lists with Python's lenient int(), negative from the end", () => {
    const material = parsePythonJson('{"rows": [["a", "b"], ["c", "d"], ["e", "f"]]}');
    for (const [pointer, expected] of [
      ["/rows/ 1/0", "c"],
      ["/rows/+1/0", "c"],
      ["/rows/01/1", "d"],
      ["/rows/-1/0", "e"],
      ["/rows/-3/1", "b"],
      ["/rows/٢/0", "e"],
    ] as const) {
      expect(defaultLocate(material, jsonPointer(pointer))).toBe(expected);
    }
    const list = parsePythonJson(`[${Array.from({ length: 11 }, (_, i) => i).join(",")}]`);
    expect(defaultLocate(list, jsonPointer("/1_0"))).toBe(10);
    expect(outcome(material, jsonPointer("/rows/3"))).toBe("invalid_span: locator did not resolve: list index out of range");
    expect(outcome(material, jsonPointer("/rows/-4"))).toBe("invalid_span: locator did not resolve: list index out of range");
    expect(outcome(material, jsonPointer("/rows/-"))).toBe("invalid_span: locator did not resolve: invalid literal for int() with base 10: '-'");
    expect(outcome(material, jsonPointer("/rows/x"))).toBe("invalid_span: locator did not resolve: invalid literal for int() with base 10: 'x'");
    expect(outcome(material, jsonPointer("/rows/99999999999999999999"))).toBe(
      "invalid_span: locator did not resolve: cannot fit 'int' into an index-sized integer",
    );
  });
  it("raises KeyError with the key's repr for missing keys and for strings and scalars", () => {
    const material = parsePythonJson('{"plan": {"name": "x"}, "n": 5}');
    expect(outcome(material, jsonPointer("/plan/tier"))).toBe("invalid_span: locator did not resolve: 'tier'");
    expect(outcome(material, jsonPointer("/plan/name/0"))).toBe("invalid_span: locator did not resolve: '0'");
    expect(outcome(material, jsonPointer("/n/x"))).toBe("invalid_span: locator did not resolve: 'x'");
    expect(outcome(material, jsonPointer("/it's"))).toBe(`invalid_span: locator did not resolve: "it's"`);
  });
  it("looks up record fields in a mapping of records", () => {
    const material = parsePythonJson('{"r1": {"owner": "ops", "seats": 25}, "r2": "flat"}');
    expect(outcome(material, recordField("r1", "owner"), "ops")).toBe("valid");
    expect(outcome(material, recordField("r1", "seats"), "25")).toBe("valid");
    expect(outcome(material, recordField("r9", "owner"))).toBe("invalid_span: locator did not resolve: 'r9'");
    expect(outcome(material, recordField("r1", "name"))).toBe("invalid_span: locator did not resolve: 'name'");
    expect(outcome(material, recordField("r2", "owner"))).toBe("invalid_span: locator did not resolve: record is not a mapping");
    expect(outcome(material, recordField(" r1", "owner"))).toBe("invalid_span: locator did not resolve: ' r1'");
    expect(outcome(["r1"], recordField("r1", "owner"))).toBe("invalid_span: locator did not resolve: RecordField");
  });
  it("reads table cells from sequences; a string counts as one", () => {
    const table = parsePythonJson('[["a", 1.0], ["c", true]]');
    expect(outcome(table, tableCell(0, 1), "1.0")).toBe("valid");
    expect(outcome(table, tableCell(1, 1), "True")).toBe("valid");
    expect(outcome(table, tableCell(2, 0))).toBe("invalid_span: locator did not resolve: list index out of range");
    expect(outcome(table, tableCell(0, 2))).toBe("invalid_span: locator did not resolve: list index out of range");
    expect(outcome("ab", tableCell(0, 0))).toBe("invalid_span: locator did not resolve: table row is not a sequence");
    expect(outcome("ab", tableCell(5, 0))).toBe("invalid_span: locator did not resolve: string index out of range");
    expect(outcome({ a: 1 }, tableCell(0, 0))).toBe("invalid_span: locator did not resolve: TableCell");
    expect(outcome(table, tableCell(Number.NaN, 0))).toBe("invalid_span: locator did not resolve: list indices must be integers or slices, not float");
  });
  it("needs a caller locator for page regions and media time ranges", () => {
    expect(outcome("pdf", pageRegion(1, [0, 0, 10, 10]))).toBe("unsupported_locator: PageRegion requires a caller locator");
    expect(outcome("audio", mediaTimeRange(1, 2))).toBe("unsupported_locator: MediaTimeRange requires a caller locator");
  });
  it("compares quotes with Python's str() of the selected value", () => {
    const material = parsePythonJson('{"price": 599.0, "count": 599, "flag": true, "none": null, "obj": {"a": 1}, "list": [1, 2]}');
    expect(outcome(material, jsonPointer("/price"), "599.0")).toBe("valid");
    expect(outcome(material, jsonPointer("/price"), "599")).toMatch(/^quote_mismatch/);
    expect(outcome(material, jsonPointer("/count"), "599")).toBe("valid");
    expect(outcome(material, jsonPointer("/flag"), "True")).toBe("valid");
    expect(outcome(material, jsonPointer("/none"), "None")).toBe("valid");
    expect(outcome(material, jsonPointer("/obj"), "{'a': 1}")).toBe("valid");
    expect(outcome(material, jsonPointer("/list"), "[1, 2]")).toBe("valid");
  });
});

describe("validateLocatedEvidence (§3)", () => {
  const materials = new Map([[keyId(revisionRefKey(ref("a"))), "alpha text"]]);
  const resolveMaterial = (r: RevisionRef) => materials.get(keyId(revisionRefKey(r)));

  it("checks visibility, then resolution; items are judged in order, duplicates each count", () => {
    const good = locatedEvidence({ ref: ref("a"), quote: "alpha text" });
    const foreign = locatedEvidence({ ref: ref("a", "1", scopeRef({ tenant: "other" })) });
    const unknown = locatedEvidence({ ref: ref("b") });
    const report = validateLocatedEvidence([good, good, foreign, unknown], { resolveMaterial, visibleRefs: [ref("a"), ref("b")] });
    expect(report.valid).toEqual([good, good]);
    expect(report.issues.map((i) => [i.kind, i.detail])).toEqual([
      ["not_visible", "artifact revision was not in the supplied material"],
      ["unresolved", "artifact revision could not be resolved"],
    ]);
    expect(report.accepted).toBe(false);
  });
  it("skips visibility when visibleRefs is null (cross-tenant refs pass); an empty list rejects all", () => {
    const foreign = locatedEvidence({ ref: ref("a", "1", scopeRef({ tenant: "other" })) });
    const scopedMaterial = () => "x";
    expect(validateLocatedEvidence([foreign], { resolveMaterial: scopedMaterial, visibleRefs: null }).accepted).toBe(true);
    expect(validateLocatedEvidence([foreign], { resolveMaterial: scopedMaterial, visibleRefs: [] }).issues[0]!.kind).toBe("not_visible");
  });
  it("accepts nothing from empty input", () => {
    expect(validateLocatedEvidence([], { resolveMaterial }).accepted).toBe(false);
  });
  it("lets a caller locate page regions; other errors propagate", () => {
    const pages = new Map([[1, "Page one text"]]);
    const locate = (material: unknown, locator: Locator | null): unknown => {
      if (locator?.type !== "PageRegion") return defaultLocate(material, locator);
      const page = pages.get(locator.page);
      if (page === undefined) throw new LocateError("IndexError", String(locator.page));
      return page;
    };
    const item = (page: number, quote: string) => locatedEvidence({ ref: ref("a"), locator: pageRegion(page, [0, 0, 1, 1]), quote });
    const report = validateLocatedEvidence([item(1, "Page one text"), item(2, "")], { resolveMaterial, locate });
    expect(report.valid).toHaveLength(1);
    expect(report.issues.map((i) => i.detail)).toEqual(["locator did not resolve: 2"]);
    const boom = () => {
      throw new Error("resolver down");
    };
    expect(() => validateLocatedEvidence([item(1, "")], { resolveMaterial: boom })).toThrow("resolver down");
  });
});

describe("artifact evidence (§4)", () => {
  const a = artifactRef({ artifact_id: "doc-1", revision: "r1" });
  const texts = new Map([[keyId(artifactRefKey(a)), "😀 Refunds close after 30 days."]]);
  const resolveText = (r: typeof a) => texts.get(keyId(artifactRefKey(r)));

  it("validates refs and spans on construction", () => {
    expect(() => artifactRef({ artifact_id: " ", revision: "r" })).toThrow("artifact ID and revision are required");
    expect(artifactRef({ artifact_id: " id ", revision: "r" }).artifact_id).toBe(" id "); // not stripped
    expect(() => artifactEvidence({ ref: a, start: 1 })).toThrow("evidence start and end must be supplied together");
    expect(() => artifactEvidence({ ref: a, start: 3, end: 2 })).toThrow("evidence span is invalid");
    expect(artifactRefKey(artifactRef({ artifact_id: "x", revision: "r", scope: scopeRef({ tenant: "t" }) }))).toEqual(["t", "default", "", "x", "r", ""]);
    expect(artifactToRevisionRef(a).object.namespace).toBe("artifact");
  });
  it("checks spans in code points, then quotes against the span or the whole text", () => {
    const items = [
      artifactEvidence({ ref: a, quote: "Refunds", start: 2, end: 9 }),
      artifactEvidence({ ref: a, quote: "Refunds", start: 1, end: 8 }),
      artifactEvidence({ ref: a, start: 0, end: 40 }),
      artifactEvidence({ ref: a, quote: "after 30 days" }),
      artifactEvidence({ ref: a, quote: "after 60 days" }),
      artifactEvidence({ ref: a }),
      artifactEvidence({ ref: artifactRef({ artifact_id: "doc-1", revision: "r2" }) }),
    ];
    const report = validateArtifactEvidence(items, { resolveText });
    expect(report.valid).toEqual([items[0], items[3], items[5]]);
    expect(report.issues.map((i) => [items.indexOf(i.evidence), i.kind, i.detail])).toEqual([
      [1, "quote_mismatch", "quote does not match the supplied span"],
      [2, "invalid_span", "span is outside material length 30"],
      [4, "quote_mismatch", "quote does not occur in the supplied material"],
      [6, "unresolved", "artifact revision could not be resolved"],
    ]);
    expect(validateArtifactEvidence([items[0]!], { resolveText, visibleRefs: [] }).issues[0]!.kind).toBe("not_visible");
    expect(validateArtifactEvidence([items[0]!], { resolveText, visibleRefs: [a] }).accepted).toBe(true);
  });
  it("converts document evidence into an artifact reference", () => {
    const e = evidence({ document_id: "kb/x", revision: "v3", quote: "Dup.", start: 107, end: 111, section_id: "refunds-2", section_revision: "abc" });
    const converted = documentEvidenceRef(e);
    expect(converted.ref).toMatchObject({ namespace: "document", artifact_id: "kb/x", revision: "v3", unit_id: "refunds-2" });
    expect([converted.quote, converted.start, converted.end, converted.metadata]).toEqual(["Dup.", 107, 111, { unit_revision: "abc" }]);
    expect(documentEvidenceRef(evidence({ document_id: "kb/x", revision: "v3" })).metadata).toEqual({});
  });
  it("validates Evidence records with the reference's messages", () => {
    expect(() => evidence({ document_id: "", revision: "v" })).toThrow("evidence document_id and revision are required");
    expect(() => evidence({ document_id: "d", revision: "v", start: 1 })).toThrow("evidence start and end must be supplied together");
    expect(() => evidence({ document_id: "d", revision: "v", section_id: "s" })).toThrow("evidence section ID and section revision must be supplied together");
    expect(() => evidence({ document_id: "d", revision: "v", start: 2, end: 1 })).toThrow("evidence span is invalid");
  });
});

describe("float indices from JSON (3.0 is a Python float)", () => {
  it("fails to slice or index with a float, as Python does", () => {
    expect(outcome("Returns:14 days", textSpan(new PyFloat(8), new PyFloat(15)))).toBe(
      "invalid_span: locator did not resolve: slice indices must be integers or None or have an __index__ method",
    );
    expect(outcome("Returns:14 days", textSpan(8, new PyFloat(16)))).toBe("invalid_span: locator did not resolve: 16.0");
    expect(outcome(parsePythonJson('[["a"]]'), tableCell(new PyFloat(0), 0))).toBe(
      "invalid_span: locator did not resolve: list indices must be integers or slices, not float",
    );
    expect(outcome("ab", tableCell(new PyFloat(0), 0))).toBe("invalid_span: locator did not resolve: string indices must be integers, not 'float'");
    expect(() => textSpan(new PyFloat(3), new PyFloat(2))).toThrow("text span is invalid");
  });
});
