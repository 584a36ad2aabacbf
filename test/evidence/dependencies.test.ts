// evidenceDependencies, assessDependencies, assessRevisionRefs (docs/evidence.md) and claim states (docs/evidence.md).
import { describe, expect, it } from "vitest";
import {
  assessDependencies,
  assessFreshness,
  documentRef,
  impactedArtifacts,
  knowledgeDocument,
  revisionRefKey,
  scopeRef,
  assessRevisionRefs,
  claimState,
  evidence,
  evidenceDependencies,
  EvidenceValueError,
  knowledgeDependency,
  objectRef,
  revisionRef,
  sectionKey,
} from "../../src/core/evidence/index.js";

const cite = (document_id: string, revision: string, section_id = "", section_revision = "") =>
  evidence({ document_id, revision, quote: "q", section_id, section_revision });

describe("evidenceDependencies", () => {
  it("collapses identical repeats and sorts by (document_id, section_id) in code-point order", () => {
    const deps = evidenceDependencies([
      cite("kb/\u{1F600}", "1"),
      cite("kb/\uffff", "1"),
      cite("kb/a", "v1", "s2", "h2"),
      cite("kb/a", "v1", "s1", "h1"),
      cite("kb/a", "v1", "s1", "h1"),
      cite("kb/a", "v1"),
    ]);
    expect(deps.map((d) => [d.document_id, d.section_id])).toEqual([
      ["kb/a", ""],
      ["kb/a", "s1"],
      ["kb/a", "s2"],
      ["kb/\uffff", ""],
      ["kb/\u{1F600}", ""],
    ]);
  });
  it("raises naming the key when one key has two revisions", () => {
    expect(() => evidenceDependencies([cite("kb/a", "v1", "s1", "h1"), cite("kb/a", "v1", "s1", "h2")])).toThrow(
      "evidence references multiple revisions of 'kb/a#s1'",
    );
    expect(() => evidenceDependencies([cite("kb/a", "v1"), cite("kb/a", "v2")])).toThrow("evidence references multiple revisions of 'kb/a'");
    expect(() => evidenceDependencies([cite("kb/it's", "v1"), cite("kb/it's", "v2")])).toThrow(`evidence references multiple revisions of "kb/it's"`);
  });
  it("accepts two document revisions cited through different sections (a reference hazard)", () => {
    const deps = evidenceDependencies([cite("kb/a", "v1", "s1", "h1"), cite("kb/a", "v2", "s2", "h2"), cite("kb/a", "v3")]);
    expect(deps.map((d) => d.revision)).toEqual(["v3", "v1", "v2"]);
  });
  it("validates dependencies", () => {
    expect(() => knowledgeDependency({ document_id: "d", revision: "" })).toThrow("dependency document ID and revision are required");
    expect(() => knowledgeDependency({ document_id: "d", revision: "1", section_id: "s" })).toThrow(
      "dependency section ID and section revision must be supplied together",
    );
    expect(() => knowledgeDependency({ document_id: "d", revision: "1", section_revision: "h" })).toThrow(EvidenceValueError);
  });
});

describe("assessDependencies", () => {
  const deps = evidenceDependencies([cite("kb/a", "v1", "s1", "h1"), cite("kb/b", "v1")]);
  it("is current when every revision matches", () => {
    const report = assessDependencies(
      deps,
      new Map([
        ["kb/a", "v1"],
        ["kb/b", "v1"],
      ]),
    );
    expect([report.status, report.reusable, report.changes.length]).toEqual(["current", true, 0]);
  });
  it("compares section revisions when a section map is given, ignoring document revision changes", () => {
    const sections = new Map([[sectionKey("kb/a", "s1"), "h1"]]);
    expect(
      assessDependencies(
        deps,
        new Map([
          ["kb/a", "v9"],
          ["kb/b", "v1"],
        ]),
        sections,
      ).status,
    ).toBe("current");
    const stale = assessDependencies(
      deps,
      new Map([
        ["kb/a", "v1"],
        ["kb/b", "v1"],
      ]),
      new Map([[sectionKey("kb/a", "s1"), "h2"]]),
    );
    expect(stale.status).toBe("stale");
    expect(stale.changes).toEqual([{ document_id: "kb/a", expected: "h1", current: "h2", section_id: "s1" }]);
    // Without a section map, the document revision decides.
    expect(
      assessDependencies(
        deps,
        new Map([
          ["kb/a", "v9"],
          ["kb/b", "v1"],
        ]),
      ).changes,
    ).toEqual([{ document_id: "kb/a", expected: "v1", current: "v9", section_id: "s1" }]);
  });
  it("records missing documents and sections and gives missing > unversioned > stale > current", () => {
    const missingSection = assessDependencies(
      deps,
      new Map([
        ["kb/a", "v1"],
        ["kb/b", "v2"],
      ]),
      new Map(),
    );
    expect([missingSection.status, missingSection.missing_dependency_ids, missingSection.changes.length]).toEqual(["missing", ["kb/a#s1"], 1]);
    const missingDoc = assessDependencies(deps, new Map([["kb/b", ""]]));
    expect([missingDoc.status, missingDoc.missing_dependency_ids, missingDoc.unversioned_dependency_ids]).toEqual(["missing", ["kb/a"], ["kb/b"]]);
    const unversioned = assessDependencies(
      deps,
      new Map([
        ["kb/a", "v2"],
        ["kb/b", ""],
      ]),
    );
    expect([unversioned.status, unversioned.reusable]).toEqual(["unversioned", false]);
  });
  it("sorts and de-duplicates changes by dependency id", () => {
    const many = [knowledgeDependency({ document_id: "kb/b", revision: "1" }), knowledgeDependency({ document_id: "kb/a", revision: "1" })];
    const report = assessDependencies(
      [...many, ...many],
      new Map([
        ["kb/a", "2"],
        ["kb/b", "2"],
      ]),
    );
    expect(report.changes.map((c) => c.document_id)).toEqual(["kb/a", "kb/b"]);
  });
});

describe("assessRevisionRefs", () => {
  const ref = (id: string, revision: string, unit = "") => revisionRef({ object: objectRef({ namespace: "n", object_id: id }), revision, unit_id: unit });
  it("is missing, stale (revision or unit) or current", () => {
    expect(assessRevisionRefs([ref("a", "1")], [ref("a", "1")]).status).toBe("current");
    expect(assessRevisionRefs([ref("a", "1")], [ref("a", "1", "u")]).status).toBe("stale");
    expect(assessRevisionRefs([ref("a", "1"), ref("b", "1")], [ref("a", "2")]).status).toBe("missing");
  });
});

describe("claim states", () => {
  it("combines resolvability with the caller's scores", () => {
    expect(claimState([])).toBe("insufficient_evidence");
    expect(claimState([{ resolvable: false, entailment: 0.99 }])).toBe("insufficient_evidence");
    expect(
      claimState([
        { resolvable: true, entailment: 0.9 },
        { resolvable: false, contradiction: 0.9 },
      ]),
    ).toBe("supported");
    expect(claimState([{ resolvable: true, contradiction: 0.5 }])).toBe("contradicted");
    expect(
      claimState([
        { resolvable: true, entailment: 0.9 },
        { resolvable: true, contradiction: 0.9 },
      ]),
    ).toBe("uncertain");
    expect(claimState([{ resolvable: true, entailment: 0.2, contradiction: 0.1 }])).toBe("uncertain");
    expect(claimState([{ resolvable: true }])).toBe("uncertain");
    expect(claimState([{ resolvable: true, entailment: 0.7 }], { entailment: 0.8, contradiction: 0.8 })).toBe("uncertain");
  });
});

describe("assessFreshness and impactedArtifacts", () => {
  it("lists only the artifacts whose evidence is not reusable, sorted by id", () => {
    const current = new Map([
      ["kb/a", "v2"],
      ["kb/b", "v1"],
    ]);
    const impacted = impactedArtifacts(
      new Map([
        ["summary-z", [cite("kb/a", "v1")]],
        ["summary-b", [cite("kb/b", "v1")]],
        ["summary-a", [cite("kb/c", "v1")]],
      ]),
      current,
    );
    expect(impacted.map((i) => [i.artifact_id, i.assessment.status])).toEqual([
      ["summary-a", "missing"],
      ["summary-z", "stale"],
    ]);
    expect(assessFreshness([cite("kb/b", "v1")], current).status).toBe("current");
  });
  it("gives a document's revision ref (namespace = source_id, object = external_id)", () => {
    const doc = knowledgeDocument({ source_id: "notion", external_id: "page:1", body: "b", revision: " r7 " });
    expect(revisionRefKey(documentRef(doc))).toEqual(["", "", "notion", "page:1", "r7", ""]);
    expect(revisionRefKey(documentRef(doc, scopeRef({ tenant: "acme" })))).toEqual(["acme", "default", "notion", "page:1", "r7", ""]);
  });
});
