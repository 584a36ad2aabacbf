// Security: the sweep's files go through the same secret scrubbing as report files: the
// value of a credential-like environment variable that reached an input (here a pair id and kind)
// is "[redacted]" in sweep.json, sweep.csv, report.md and report.html.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runMari, tempDir } from "../support/cli.js";
import { firstLines, PAIRS, write } from "./helpers.js";

const tmp = tempDir("mari-secrets-");
afterAll(() => tmp.cleanup());
const SECRET = "sk-test-SECRETVALUE-12345";

it("sweep outputs never carry a secret env value", async () => {
  const lines = firstLines(PAIRS, 40).map((l, i) => (i < 5 ? JSON.stringify({ ...JSON.parse(l), kind: SECRET }) : l));
  const pairs = write(tmp.dir, "pairs.jsonl", `${[...lines, JSON.stringify({ id: SECRET, new: 3 })].join("\n")}\n`);
  const out = join(tmp.dir, "sweep");
  const r = await runMari(["sweep", pairs, "--out", out, "--quiet", "--progress", "none", "--workers", "1"], { env: { MY_API_KEY: SECRET } });
  expect(r.code, r.stderr).toBe(0);
  const texts = readdirSync(out)
    .filter((f) => !f.startsWith("."))
    .map((f) => readFileSync(join(out, f), "utf8"));
  for (const text of texts) expect(text).not.toContain(SECRET);
  expect(readFileSync(join(out, "sweep.json"), "utf8")).toContain("[redacted]");
});
