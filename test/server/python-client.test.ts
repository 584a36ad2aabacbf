// The TRL reward-function snippet of docs/serve.md, run as written (only the port changed) by
// python3 against a live `mari serve`: it returns accuracy + format + coverage per completion.
// Skips without python3 and `requests`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/cli.js";
import { CONTRADOC_160, postJson, startServe, type ServeProcess } from "./support.js";

const hasRequests = spawnSync("python3", ["-c", "import requests"]).status === 0;

function docSnippet(): string {
  const doc = readFileSync(join(ROOT, "docs/serve.md"), "utf8");
  const section = doc.slice(doc.indexOf("## From a TRL reward function"));
  const m = /```python\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error("docs/serve.md has no python block under 'From a TRL reward function'");
  return m[1]!;
}

describe.skipIf(!hasRequests)("the TRL reward function of docs/serve.md (skipped without python3 + requests)", () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe([CONTRADOC_160]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("returns the summed components for plain and chat-format completions", async () => {
    const ids = ["3489738220_3", "3489738220_3", "no-such-case"];
    const texts = [
      "<think>\nSentence [1] and [4] disagree.\n</think>\n<answer>\nJudgment: yes\nEvidence: [4]\n</answer>",
      "<think>\nChecked [1-3].\n</think>\n<answer>\nJudgment: no\nEvidence: []\n</answer>",
      "no layout at all",
    ];
    const snippet = docSnippet();
    expect(snippet).toContain("http://127.0.0.1:8000/v1/rewards");
    const driver = `${snippet.replace("http://127.0.0.1:8000", server.url)}
import json, sys
ids, texts = json.load(sys.stdin)
plain = mari_rewards(texts, case_id=ids, prompts=["p"] * len(ids))
chat = mari_rewards([[{"role": "assistant", "content": t}] for t in texts], case_id=ids)
print(json.dumps([plain, chat]))
`;
    const run = spawnSync("python3", ["-c", driver], { input: JSON.stringify([ids, texts]), encoding: "utf8" });
    expect(run.stderr).toBe("");
    const [plain, chat] = JSON.parse(run.stdout);
    const { json } = await postJson(`${server.url}/v1/rewards`, JSON.stringify({ items: ids.map((case_id, i) => ({ case_id, completion: texts[i] })) }));
    const sums = json.results.map((r: any) => r.accuracy + r.format + r.reference_coverage);
    expect(plain).toEqual(sums);
    expect(chat).toEqual(sums);
    expect(new Set(sums).size).toBe(3);
  });
});
