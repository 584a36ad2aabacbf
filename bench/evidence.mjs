#!/usr/bin/env node
// `mari evidence` at scale: 1,000 markdown documents with nested sections and 100,000 facts cases
// citing them (mostly accepted, some of each main rejection code), generated from a fixed seed,
// then the CLI against the floor "read + JSON.parse every line of both files", best of 3 each, as
// wall time, CPU seconds (user + sys) and peak RSS of child processes (bench/lib/measure-child.py).
// Needs a build. Writes bench/results/evidence.json.
//   node bench/evidence.mjs [--documents N] [--cases N] [--repeat K]
import { once } from "node:events";
import { createWriteStream, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { flag, machineFacts, measureChild, ROOT, TIMER } from "./lib/measure.mjs";

const OUT = join(ROOT, "bench/out");
const DOCS = join(OUT, "evidence-docs.jsonl");
const FACTS = join(OUT, "evidence-facts.jsonl");
const REPORT = join(OUT, "evidence-report");
const MARI = join(ROOT, "bin/mari.js");

const DOCUMENTS = flag("--documents", 1_000);
const CASES = flag("--cases", 100_000);
const REPEAT = flag("--repeat", 3);

const { documentId, documentSections } = await import(join(ROOT, "dist/core/evidence/index.js"));

/** Deterministic LCG so the inputs are byte-identical on every machine. */
let state = 20261130;
const rand = (n) => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return (state >>> 8) % n;
};
const pick = (list) => list[rand(list.length)];

const WORDS = (
  "account admin annual audit backup billing branch budget cache calendar cancel card channel " +
  "charge checkout client cloud cluster contract credit customer dashboard data deadline deploy " +
  "device discount domain download email enterprise export feature fee file filter firewall " +
  "folder form gateway grace guest hardware holiday import incident index invoice key label " +
  "latency license limit log login mailbox manager member metric migration mobile monthly network " +
  "notice office onboarding order owner partner password payment period permission plan policy " +
  "portal price priority profile project quota rate record refund region release renewal report " +
  "request reseller retention review role router schedule seat server service session setting " +
  "share signature storage subscription support survey tax team tenant ticket tier token trial " +
  "upgrade upload usage user vendor version volume warranty webhook window workspace"
).split(" ");
// A few non-ASCII words so offsets (code points), casefolding and slugs are exercised too.
const EXTRA = ["Straße", "café", "naïve", "İstanbul", "😀", "🚀", "ﬁnance", "Ωmega"];
const HEADINGS = [
  "Overview",
  "Refunds",
  "Billing",
  "Enterprise Plan",
  "Security",
  "Limits",
  "Support hours",
  "Straße FAQ",
  "Data retention",
  "Plan 🚀",
  "Migration",
  "Appendix",
];
// The same sentence in every section of a document, so a quote of it without section_id is ambiguous.
const BOILERPLATE = "Contact support for anything not covered here.";

function sentence() {
  const words = [];
  const n = 8 + rand(7);
  for (let i = 0; i < n; i++) words.push(rand(25) === 0 ? pick(EXTRA) : pick(WORDS));
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(" ")}${rand(4) === 0 ? ` ${1 + rand(365)} days` : ""}.`;
}

/** A body of 3–8 sections, top-level and nested, each with a few unique sentences and the boilerplate. */
function body() {
  const lines = [`${sentence()} ${sentence()}`];
  const sections = 3 + rand(6);
  for (let s = 0; s < sections; s++) {
    const level = s === 0 || rand(3) > 0 ? 1 : 2 + rand(2);
    lines.push(`${"#".repeat(level)} ${pick(HEADINGS)}`);
    const paragraphs = 1 + rand(3);
    for (let p = 0; p < paragraphs; p++) lines.push(Array.from({ length: 2 + rand(3) }, sentence).join(" "));
    lines.push(BOILERPLATE);
  }
  return `${lines.join("\n")}\n`;
}

/** Unique sentences of each section: quotable text that occurs exactly once in the document. */
function quotable(section) {
  return section.text
    .split("\n")
    .filter((l) => !l.startsWith("#"))
    .flatMap((l) => l.split(/(?<=\.) /))
    .filter((s) => s.length > 20 && s !== BOILERPLATE);
}

async function writeLines(path, rows) {
  const out = createWriteStream(path);
  let block = "";
  for (const row of rows) {
    block += `${JSON.stringify(row)}\n`;
    if (block.length > 1 << 16) {
      if (!out.write(block)) await once(out, "drain");
      block = "";
    }
  }
  out.end(block);
  await once(out, "finish");
}

function generateDocuments() {
  const docs = [];
  for (let i = 0; i < DOCUMENTS; i++) {
    const external = i % 10 === 0 ? `Straße FAQ ${i}` : `doc-${String(i).padStart(4, "0")}`;
    const record = { source_id: "kb", external_id: external, title: `${pick(HEADINGS)} ${i}`, revision: `v${1 + rand(9)}`, body: body() };
    const id = documentId(record.source_id, record.external_id);
    const sections = documentSections(record)
      .map((s) => ({ id: s.section_id, quotes: quotable(s) }))
      .filter((s) => s.quotes.length > 0);
    docs.push({ record, id, sections });
  }
  return docs;
}

// Share of cases per outcome, in per mille; the rest (800‰) are accepted.
const MIX = [
  ["quote_not_in_document", 50],
  ["quote_not_in_section", 30],
  ["ambiguous_section", 30],
  ["unknown_document", 20],
  ["empty_quote", 20],
  ["no_evidence", 20],
  ["bad_envelope", 15],
  ["missing_claim", 15],
];

function outcome() {
  let r = rand(1000);
  for (const [code, share] of MIX) {
    if (r < share) return code;
    r -= share;
  }
  return "accepted";
}

/** One citation of a unique sentence, with section_id half the time and a caller score most of the time. */
function citation(doc) {
  const section = pick(doc.sections);
  const quote = pick(section.quotes);
  const entry = { document_id: doc.id, quote: rand(3) === 0 ? quote.slice(0, -1) : quote };
  if (rand(2) === 0) entry.section_id = section.id;
  const score = rand(10);
  if (score < 6) entry.entailment = Number((0.5 + rand(50) / 100).toFixed(2));
  else if (score < 8) entry.contradiction = Number((0.5 + rand(50) / 100).toFixed(2));
  return entry;
}

function* generateCases(docs) {
  const states = ["supported", "contradicted", "uncertain", "insufficient_evidence"];
  for (let i = 0; i < CASES; i++) {
    const doc = pick(docs);
    const other = pick(docs);
    const code = outcome();
    const claim = `Claim ${i}: ${sentence()}`;
    const facts = [{ claim, evidence: [citation(doc)] }];
    let output = { facts };
    if (code === "accepted") {
      if (rand(3) === 0) facts[0].evidence.push(citation(rand(2) === 0 ? doc : other));
      if (rand(4) === 0) facts.push({ claim: `Also ${i}: ${sentence()}`, evidence: [citation(doc)] });
    } else if (code === "quote_not_in_document") {
      facts[0].evidence[0].quote = `${sentence()} (not in the document)`;
    } else if (code === "quote_not_in_section") {
      // A sentence of one section cited with the id of another (every document has ≥ 2 sections).
      const n = doc.sections.length;
      const a = rand(n);
      const b = (a + 1 + rand(n - 1)) % n;
      facts[0].evidence[0] = { document_id: doc.id, quote: pick(doc.sections[a].quotes), section_id: doc.sections[b].id };
    } else if (code === "ambiguous_section") {
      facts[0].evidence[0] = { document_id: doc.id, quote: BOILERPLATE };
    } else if (code === "unknown_document") {
      facts[0].evidence[0].document_id = `kb/retired-${i}`;
    } else if (code === "empty_quote") {
      facts[0].evidence[0].quote = pick(["", "   ", "\n"]);
    } else if (code === "no_evidence") {
      facts[0].evidence = [];
    } else if (code === "bad_envelope") {
      output = pick(["Sure! Here are the facts: ...", null, { fact: [] }, [{ claim }]]);
    } else if (code === "missing_claim") {
      facts[0].claim = pick(["", "  ", null]);
    }
    // The model saw the cited document and one or two others (two ids, so no single-document rescue).
    const row = { case_id: `case-${i}`, documents: doc === other ? [doc.id] : [doc.id, other.id], output };
    if (code === "unknown_document" && row.documents.length < 2) row.documents.push(docs[(docs.indexOf(doc) + 1) % docs.length].id);
    if (rand(2) === 0) row.gold_state = code === "accepted" ? pick(states) : "insufficient_evidence";
    yield row;
  }
}

const FLOOR_SCRIPT = `
import { readLineBatches } from ${JSON.stringify(join(ROOT, "dist/io/lines.js"))};
let n = 0;
for (const file of process.argv.slice(1)) {
  for await (const batch of readLineBatches(file)) for (const line of batch) { if (line.text) { JSON.parse(line.text); n++; } }
}
console.log(n);
`;

// Fallback when /usr/bin/time is absent: run the command in-process and print the same fields.

function best(samples) {
  const round = (x, d = 3) => Number(x.toFixed(d));
  return {
    wall_seconds: round(Math.min(...samples.map((s) => s.wall_seconds))),
    cpu_seconds: round(Math.min(...samples.map((s) => s.cpu_seconds ?? Infinity)), 2),
    peak_rss_mb: round(Math.max(...samples.map((s) => s.peak_rss_mb ?? 0)), 1),
    samples_wall: samples.map((s) => round(s.wall_seconds)),
    samples_cpu: samples.map((s) => (s.cpu_seconds === null ? null : round(s.cpu_seconds, 2))),
    load_average_1m: samples.map((s) => round(s.load_average_1m, 2)),
  };
}

mkdirSync(OUT, { recursive: true });
const docs = generateDocuments();
await writeLines(
  DOCS,
  docs.map((d) => d.record),
);
await writeLines(FACTS, generateCases(docs));
const sizes = {
  documents: DOCUMENTS,
  sections: docs.reduce((n, d) => n + d.sections.length, 0),
  cases: CASES,
  documents_bytes: statSync(DOCS).size,
  facts_bytes: statSync(FACTS).size,
};
console.log(
  `inputs: ${DOCUMENTS} documents (${sizes.sections} sections, ${(sizes.documents_bytes / 1e6).toFixed(1)} MB), ${CASES} cases (${(sizes.facts_bytes / 1e6).toFixed(1)} MB)`,
);

const cli = ["evidence", DOCS, "--facts", FACTS, "--out", REPORT, "--quiet", "--progress", "none"];
const samples = { floor: [], evidence: [] };
for (let k = 0; k < REPEAT; k++) {
  samples.floor.push(await measureChild(["--input-type=module", "-e", FLOOR_SCRIPT, DOCS, FACTS]));
  samples.evidence.push(await measureChild([MARI, ...cli]));
}
const floor = best(samples.floor);
const evidence = best(samples.evidence);
const report = JSON.parse(readFileSync(join(REPORT, "report.json"), "utf8"));
const summary = {
  command: "npm run bench -- evidence   (node bench/evidence.mjs)",
  measured: `node bin/mari.js ${cli.map((a) => a.replace(`${ROOT}/`, "")).join(" ")}`,
  date: new Date().toISOString(),
  machine: { ...machineFacts(), timer: TIMER },
  sizes,
  repeat: REPEAT,
  floor,
  evidence: {
    ...evidence,
    ratio_to_floor_wall: Number((evidence.wall_seconds / floor.wall_seconds).toFixed(2)),
    cpu_microseconds_per_case: Number(((evidence.cpu_seconds / CASES) * 1e6).toFixed(1)),
    cases_per_second_wall: Math.round(CASES / evidence.wall_seconds),
  },
  report: {
    accepted_rate: report.metrics.accepted_rate,
    accepted: report.metrics.accepted,
    rejected: report.metrics.rejected,
    facts: report.metrics.facts,
    citations: report.metrics.citations,
    errors: report.errors,
  },
};
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/evidence.json"), `${JSON.stringify(summary, null, 2)}\n`);
console.log(
  `mari evidence, ${CASES} cases over ${DOCUMENTS} documents: ${evidence.wall_seconds.toFixed(2)} s wall, ` +
    `${evidence.cpu_seconds.toFixed(2)} s CPU (${summary.evidence.cpu_microseconds_per_case} µs/case), peak RSS ${evidence.peak_rss_mb.toFixed(0)} MB; ` +
    `floor ${floor.wall_seconds.toFixed(2)} s wall, ${floor.cpu_seconds.toFixed(2)} s CPU, ${floor.peak_rss_mb.toFixed(0)} MB; ` +
    `accepted_rate ${report.metrics.accepted_rate} (best of ${REPEAT})`,
);
