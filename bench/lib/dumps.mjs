// Deterministic input generators shared by the benchmarks and the output-identity check
// (bench/lib/check-identical.mjs): the GRPO-shaped slice and dump (37,500 generated documents of
// five sentences, 8 samples each) and a ContraDoc dump with every line rejection and case reason.
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";

/** A JSONL slice's records, each with `n`, its sentence count as mari splits it (needs a build). */
export async function casesWithSentenceCounts(root, slicePath) {
  const { splitSentences } = await import(join(root, "dist/core/document/index.js"));
  const cases = readFileSync(slicePath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  for (const c of cases) c.n = splitSentences(c.text).length;
  return cases;
}

/** Deterministic LCG so the files are the same on every machine. */
export function lcg(seed) {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

async function writeLines(path, lines) {
  const out = createWriteStream(path);
  let block = "";
  let count = 0;
  for (const line of lines) {
    block += line;
    count++;
    if (block.length > 1 << 20) {
      if (!out.write(block)) await once(out, "drain");
      block = "";
    }
  }
  out.write(block);
  out.end();
  await once(out, "finish");
  return count;
}

const WORDS = [
  "the",
  "river",
  "report",
  "stated",
  "that",
  "council",
  "members",
  "agreed",
  "never",
  "after",
  "winter",
  "budget",
  "school",
  "opened",
  "closed",
  "north",
  "market",
  "always",
];

/** GRPO-shaped: `documents` generated documents of five sentences, `samples` completions each. */
export async function writeGrpo(slicePath, dumpPath, { documents = 37_500, samples = 8 } = {}) {
  const rand = lcg(777);
  const labels = [];
  function* sliceLines() {
    for (let d = 0; d < documents; d++) {
      const sentences = [];
      for (let s = 0; s < 5; s++) {
        const words = [];
        for (let w = 0; w < 6 + rand(6); w++) words.push(WORDS[rand(WORDS.length)]);
        sentences.push(`${words.join(" ")}.`.replace(/^./, (c) => c.toUpperCase()));
      }
      const label = rand(2) === 0;
      labels.push(label);
      yield `${JSON.stringify({ id: `g${d}`, text: sentences.join(" "), label, evidence: label ? sentences[rand(5)] : "" })}\n`;
    }
  }
  await writeLines(slicePath, sliceLines());
  function* dumpLines() {
    for (let d = 0; d < documents; d++) {
      for (let run = 0; run < samples; run++) {
        const judgment = rand(10) < 7 ? labels[d] : !labels[d];
        const ids = judgment ? [1 + rand(5), 1 + rand(5)] : [];
        const reasoning = `Sentence [${1 + rand(5)}] and [${1 + rand(5)}] ${judgment ? "disagree" : "agree"}.`;
        const completion = `<think>\n${reasoning}\n</think>\n<answer>\nJudgment: ${judgment ? "yes" : "no"}\nEvidence: [${ids.join(", ")}]\n</answer>`;
        yield `${JSON.stringify({ case_id: `g${d}`, run, completion })}\n`;
      }
    }
  }
  return writeLines(dumpPath, dumpLines());
}

/**
 * A dump over `slicePath` (ids, texts) with every line rejection and every case reason, mixed
 * among valid predictions, `runs` runs. Returns the number of lines.
 */
export async function writeRejections(slicePath, dumpPath, { runs = 6 } = {}) {
  const rand = lcg(4242);
  const cases = readFileSync(slicePath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const parts = [];
  const push = (s) => parts.push(Buffer.from(s));
  for (let run = 0; run < runs; run++) {
    for (const c of cases) {
      const k = rand(40);
      const base = { case_id: c.id, run };
      const good = rand(2) === 0;
      if (k === 0)
        continue; // missing prediction
      else if (k === 1)
        parts.push(
          Buffer.concat([
            Buffer.from(`{"case_id":"${c.id}","run":${run},"judgment":false,"evidence_sentence_ids":[],"reasoning":"`),
            Buffer.from([0xff, 0xfe]),
            Buffer.from(`"}\n`),
          ]),
        );
      else if (k === 2) push("\n");
      else if (k === 3) push(`{"case_id": "${c.id}", "run": ${run}, "judgment": tru\n`);
      else if (k === 4) push("[1, 2]\n");
      else if (k === 5) push(`${JSON.stringify({ ...base, case_id: 17 })}\n`);
      else if (k === 6) push(`${JSON.stringify({ ...base, run: { x: 1 } })}\n`);
      else if (k === 7) push(`${JSON.stringify({ ...base, case_id: `orphan-${rand(1000)}` })}\n`);
      else if (k === 8) push(`${JSON.stringify({ ...base, judgment: "yes" })}\n`);
      else if (k === 9) push(`${JSON.stringify({ ...base, completion: "Judgment: yes" })}\n`);
      else if (k === 10) push(`${JSON.stringify({ ...base, judgment: true, evidence_sentence_ids: "1", reasoning: "r" })}\n`);
      else if (k === 11) push(`${JSON.stringify({ ...base, judgment: true, evidence_sentence_ids: [1.5], reasoning: "r" })}\n`);
      else if (k === 12) push(`${JSON.stringify({ ...base, judgment: true, evidence_sentence_ids: [100000], reasoning: "r" })}\n`);
      else if (k === 13) push(`${JSON.stringify({ ...base, judgment: true, evidence_sentence_ids: [], reasoning: "r" })}\n`);
      else if (k === 14) push(`${JSON.stringify({ ...base, judgment: false, evidence_sentence_ids: [1], reasoning: "r" })}\n`);
      else if (k === 15) push(`${JSON.stringify({ ...base, judgment: false, evidence_sentence_ids: [], reasoning: 7 })}\n`);
      else if (k === 16) push(`${JSON.stringify({ ...base, judgment: false, evidence_sentence_ids: [], reasoning: "see [99999]" })}\n`);
      else if (k === 17) push(`${JSON.stringify({ ...base, judgment: true, evidence_sentence_ids: [3.0], reasoning: "r" })}\n`);
      else if (k === 18) push(`${JSON.stringify({ ...base, prediction: 5 })}\n`);
      else {
        const ids = good ? [1 + rand(3), 1 + rand(2)] : [];
        push(`${JSON.stringify({ ...base, judgment: good, evidence_sentence_ids: ids, reasoning: `see [${1 + rand(2)}]` })}\n`);
        if (k === 19) push(`${JSON.stringify({ ...base, judgment: !good, evidence_sentence_ids: [], reasoning: "dup" })}\n`);
      }
    }
  }
  writeFileSync(dumpPath, Buffer.concat(parts));
  return parts.length;
}
