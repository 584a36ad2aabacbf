// `mari serve --sentences punkt`: a real server on 127.0.0.1 scoring against Punkt numbering, its
// /health slice hash the one `mari eval --sentences punkt` records.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { RewardsServer } from "../../src/server/rewards-server.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runMari, tempDir } from "../support/cli.js";
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
  it("/health gives the slice hash `mari eval --sentences punkt` records, not the mari numbering's", async () => {
    const health = (await (await fetch(`${server.url}/health`)).json()) as { slice: { hash: string } };
    const work = tempDir("mari-serve-punkt-");
    try {
      const recorded = async (numbering: string) => {
        const out = join(work.dir, numbering);
        const r = await runMari(["eval", CONTRADOC_160, "--sentences", numbering, "--out", out, "--report", "json", "--quiet", "--progress", "none"]);
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(readFileSync(join(out, "report.json"), "utf8")).dataset.slice_hash as string;
      };
      expect(health.slice.hash).toBe(await recorded("punkt"));
      expect(health.slice.hash).not.toBe(await recorded("mari"));
    } finally {
      work.cleanup();
    }
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
