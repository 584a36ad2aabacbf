// The fourth round's fuzzers in the suite: seeded mutants of `.eval` zips and of inspect/promptfoo
// JSON logs through the real readers and the eval (in this process: hundreds of mutants fit the
// suite's budget). Whatever the mutant: an InputError naming the file, or a report that counts
// every sample, with nothing changed silently (a zip's samples are CRC-checked: each is read as
// written or is a failed prediction saying why). `npm run bench -- hostile-logs` runs ≥ 2,000 of
// each, every one in a child process bounded in time and memory.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkMutant, mutateJsonl, mutateJsonText, mutateZip, prng } from "../../bench/lib/log-fuzz.mjs";
import { evaluateDocuments, InputError } from "../../src/index.js";
import { evalLogLines } from "../../src/judges/eval-logs.js";
import { detectEvalLog } from "../../src/judges/log-kind.js";
import { tempDir } from "../support/cli.js";
import { inspectEvalBytes, inspectJsonLog, promptfooJsonLog, promptfooResults, sliceCases } from "./eval-log-fixtures.js";
import { scaled } from "../support/time-limits.js";

const tmp = tempDir("mari-log-fuzz-");
afterAll(() => tmp.cleanup());
const { lines: sliceLines, cases } = sliceCases(8);
const slicePath = join(tmp.dir, "slice.jsonl");
writeFileSync(slicePath, `${sliceLines.join("\n")}\n`);
const api = { detectEvalLog, evalLogLines, evaluateDocuments, InputError };
const MUTANTS = 100;

/** The honest log's dump lines. */
async function honestLines(name: string, bytes: Buffer): Promise<Set<string>> {
  const path = join(tmp.dir, name);
  writeFileSync(path, bytes);
  const kind = await detectEvalLog(path);
  expect(kind).toBeDefined();
  return new Set((await evalLogLines(path, kind!)) as string[]);
}

async function fuzz(family: "zip" | "json", name: string, honestBytes: Buffer, mutant: (random: () => number) => Buffer, seed: number) {
  const honest = await honestLines(`honest-${name}`, honestBytes);
  const random = prng(seed);
  const outcomes = { "input-error": 0, read: 0 };
  for (let i = 0; i < MUTANTS; i++) {
    const bytes = mutant(random);
    const path = join(tmp.dir, `${i % 4}-${name}`);
    writeFileSync(path, bytes);
    const outDir = join(tmp.dir, `out-${name}`);
    const outcome = await checkMutant(api, { path, bytes, family, honest, slicePath, outDir });
    outcomes[outcome as keyof typeof outcomes]++;
    rmSync(outDir, { recursive: true, force: true });
  }
  // Both outcomes occur: the mutants are neither all harmless nor all fatal.
  expect(outcomes.read, JSON.stringify(outcomes)).toBeGreaterThan(0);
  expect(outcomes["input-error"], JSON.stringify(outcomes)).toBeGreaterThan(0);
}

describe(`fuzz: ${MUTANTS} mutants per log kind, no crash and no silent change`, () => {
  it.each([
    ["deflate", 8],
    ["stored", 0],
  ] as const)(
    "inspect .eval zips, %s members",
    async (label, method) => {
      const zip = inspectEvalBytes(cases, method);
      await fuzz("zip", `log-${label}.eval`, zip, (random) => mutateZip(zip, random), 41 + method);
    },
    300_000,
  );

  it(
    "inspect .json logs",
    async () => {
      const text = JSON.stringify(inspectJsonLog(cases), null, 1);
      await fuzz("json", "inspect.json", Buffer.from(text), (random) => mutateJsonText(text, random), 43);
    },
    scaled(300_000),
  );

  it(
    "promptfoo .json outputs",
    async () => {
      const text = JSON.stringify(promptfooJsonLog(cases), null, 1);
      await fuzz("json", "promptfoo.json", Buffer.from(text), (random) => mutateJsonText(text, random), 44);
    },
    scaled(300_000),
  );

  it(
    "promptfoo .jsonl outputs",
    async () => {
      const lines = promptfooResults(cases).map((r) => JSON.stringify(r));
      await fuzz("json", "promptfoo.jsonl", Buffer.from(`${lines.join("\n")}\n`), (random) => mutateJsonl(lines, random), 45);
    },
    scaled(300_000),
  );
});
