// `mari serve --sentences punkt`: a real server on 127.0.0.1 scoring against Punkt numbering, its
// /health slice hash the one `mari eval --sentences punkt` records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { RewardsServer } from "../../src/server/rewards-server.js";
import { sliceHashOf } from "../../src/tasks/document/score-dump.js";
import { CONTRADOC_160, postJson, startTestServer } from "./support.js";

let punkt: DocumentSlice;
let mari: DocumentSlice;
let server: RewardsServer;

beforeAll(async () => {
  [punkt, mari] = await Promise.all([readDocumentSlice(CONTRADOC_160, { sentences: "punkt" }), readDocumentSlice(CONTRADOC_160)]);
  server = await startTestServer(punkt);
});

afterAll(async () => {
  await server?.close();
});

describe("serve with Punkt numbering", () => {
  it("/health gives the Punkt slice hash", async () => {
    const health = (await (await fetch(`${server.url}/health`)).json()) as { slice: { hash: string } };
    expect(health.slice.hash).toBe(sliceHashOf(punkt));
    expect(health.slice.hash).not.toBe(sliceHashOf(mari));
  });

  it("a prediction citing the Punkt gold sentence earns the full accuracy reward", async () => {
    // A positive whose gold id differs between the two numberings.
    const c = punkt.cases.find((p) => p.label && JSON.stringify(p.gold) !== JSON.stringify(mari.cases[p.index]!.gold))!;
    expect(c).toBeDefined();
    const item = (ids: number[]) => ({ case_id: c.id, judgment: true, evidence_sentence_ids: ids, reasoning: "" });
    const { status, json } = await postJson(`${server.url}/v1/rewards`, JSON.stringify({ items: [item(c.gold), item(mari.cases[c.index]!.gold)] }));
    expect(status).toBe(200);
    expect(json.results.map((r: { accuracy: number }) => r.accuracy)).toEqual([2, expect.any(Number)]);
    expect(json.results[1].accuracy).toBeLessThan(2);
  });
});
