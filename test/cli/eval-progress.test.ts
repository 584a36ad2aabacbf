// Plain progress of `mari eval` ends at its total (it stayed at "0/1 (0%)" for dumps under 1 MB).
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runMari, tempDir } from "../support/cli.js";

const tmp = tempDir("mari-eval-progress-");
afterAll(() => tmp.cleanup());

describe("mari eval --progress plain", () => {
  it("reports the whole dump as read when the run is done", async () => {
    const r = await runMari([
      "eval",
      join(ROOT, "datasets/contradoc/contradoc-160.jsonl"),
      "--out",
      tmp.dir,
      "--progress",
      "plain",
      "--quiet",
      "--workers",
      "1",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^eval \(MB\): 1\/1 \(100%\) [\d.]+s done$/m);
    expect(r.stderr).not.toContain("0/1 (0%)");
  });
});
