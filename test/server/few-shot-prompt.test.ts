// A trainer that sends no case id (OpenRLHF with "" labels): the case is found from the document in
// the prompt, also when the prompt first shows a worked example document tagged the same way.
// A real server on 127.0.0.1 (in process); the reward compared with the one the case id gives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocumentSlice, type DocumentSlice } from "../../src/io/slice.js";
import type { RewardsServer } from "../../src/server/rewards-server.js";
import { CONTRADOC_160, postJson, startTestServer } from "./support.js";

let slice: DocumentSlice;
let server: RewardsServer;
beforeAll(async () => {
  slice = await readDocumentSlice(CONTRADOC_160);
  server = await startTestServer(slice);
});
afterAll(async () => {
  await server?.close();
});

describe("/get_reward without a case id", () => {
  it("finds the document after a few-shot example document in the prompt", async () => {
    const c = slice.cases.find((x) => x.label && x.gold.length > 0)!;
    const tagged = c.sentences.map((sentence, i) => `[${i + 1}] ${sentence}`).join(" ");
    const example = "[1] The bridge opened in 1990. [2] The bridge was never opened.";
    const prompt = `Example document:\n${example}\nAnswer: yes, [1] and [2].\n\nDocument:\n${tagged}\nIs it self-contradictory?\n`;
    const completion = `<think>\nSee [${c.gold[0]}].\n</think>\n<answer>\nJudgment: yes\nEvidence: [${c.gold[0]}]\n</answer>`;
    const found = await postJson(`${server.url}/get_reward`, JSON.stringify({ query: [prompt + completion], prompts: [prompt], labels: [""] }));
    expect(found.status, JSON.stringify(found.json)).toBe(200);
    const named = await postJson(`${server.url}/v1/rewards`, JSON.stringify({ items: [{ case_id: c.id, completion }] }));
    expect(named.status).toBe(200);
    // A right "yes" citing the gold sentence: the full accuracy reward, as for the case named by id.
    expect(named.json.results[0].accuracy).toBe(2);
    expect(found.json.extra_logs.accuracy).toEqual([named.json.results[0].accuracy]);
    expect(found.json.extra_logs.reference_coverage).toEqual([named.json.results[0].reference_coverage]);
  });
});
