#!/usr/bin/env node
// Output-identity check for `mari evidence` performance work: runs a reference build (`--base DIR`,
// a copy of bin/ + dist/ from before the change) and this tree on the bench input (as is, with
// --current documents where some revisions changed or are gone, as two shards and their merge), on
// a facts file with every kind of bad line and odd value, and on datasets/evidence-example, and
// compares every output file and stdout byte for byte; report.json without `system` and
// `elapsed_seconds`, report.md/html without their timing and config-hash lines (the
// shards' paths differ), report.junit.xml without its times. Needs `node bench/evidence.mjs`
// to have written bench/out/evidence-*.jsonl. Exit 1 on any difference.
//   node bench/lib/check-evidence.mjs --base /tmp/ev-base [--only NAME]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./measure.mjs";

const args = process.argv.slice(2);
const base = args[args.indexOf("--base") + 1];
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const OUT = join(ROOT, "bench/out/identical-evidence");
const DOCS = join(ROOT, "bench/out/evidence-docs.jsonl");
const FACTS = join(ROOT, "bench/out/evidence-facts.jsonl");
const ex = (name) => join(ROOT, "datasets/evidence-example", `${name}.jsonl`);
mkdirSync(OUT, { recursive: true });

// Current documents: every third revision bumped (body extended), every seventh document gone.
const docLines = readFileSync(DOCS, "utf8").split("\n").filter(Boolean);
const CURRENT = join(OUT, "current.jsonl");
writeFileSync(
  CURRENT,
  docLines
    .flatMap((line, i) => {
      if (i % 7 === 3) return [];
      if (i % 3 !== 0) return [line];
      const doc = JSON.parse(line);
      return [JSON.stringify({ ...doc, revision: `${doc.revision}-next`, body: `${doc.body}One more line.\n` })];
    })
    .join("\n") + "\n",
);

// Facts with bad lines and odd values around 3,000 good ones.
const factLines = readFileSync(FACTS, "utf8").split("\n", 3000);
const firstDoc = JSON.parse(docLines[1]); // an id that needs no percent-encoding
const docId = `${firstDoc.source_id}/${firstDoc.external_id}`;
const quote = firstDoc.body.split("\n")[0].split(". ")[0];
const odd = [
  "{",
  "",
  "   ",
  "[1, 2]",
  '"text"',
  factLines[5],
  '{"id": "by-id", "output": {"facts": []}}',
  '{"case_id": "", "output": {}}',
  '{"case_id": 7, "output": {}}',
  JSON.stringify({ case_id: "bad-docs", documents: "kb", output: {} }),
  JSON.stringify({ case_id: "unknown-listed", documents: ["kb/nope"], output: {} }),
  JSON.stringify({ case_id: "bad-score", documents: [docId], output: { facts: [{ claim: "x", entailment: 2, evidence: [] }] } }),
  JSON.stringify({ case_id: "bad-gold", documents: [docId], gold_state: "maybe", output: {} }),
  JSON.stringify({
    case_id: "gold-map",
    documents: [docId],
    gold_state: { [`About ${quote}`]: "supported", other: "contradicted" },
    output: { facts: [{ claim: `About ${quote}`, evidence: [{ document_id: docId, quote }] }] },
  }),
  JSON.stringify({ case_id: "all-docs", output: { facts: [{ claim: "Bare", evidence: [quote] }] } }),
  JSON.stringify({ case_id: "bare-one", documents: [docId], output: { facts: [{ claim: "Bare one", evidence: [quote, { quote }] }] } }),
  JSON.stringify({
    case_id: "dup-claims",
    documents: [docId],
    output: {
      facts: [
        { claim: "Same  claim!", evidence: [quote] },
        { claim: "same claim", evidence: [] },
        { claim: "...", evidence: [] },
      ],
    },
  }),
  JSON.stringify({ case_id: "entry-type", documents: [docId], output: { facts: [{ claim: "c", evidence: [5] }] } }),
  JSON.stringify({
    case_id: "lone-surrogate",
    documents: [docId],
    output: { facts: [{ claim: "Surrogate \ud800 claim", evidence: [{ document_id: docId, quote: `${quote}\udc00` }] }] },
  }),
  JSON.stringify({
    case_id: "unicode-claim",
    documents: [docId],
    output: { facts: [{ claim: "ﬁnance Straße İstanbul ΣΑΣ ½ x_y 😀 café", evidence: [{ document_id: docId, quote, entailment: null, contradiction: 0.9 }] }] },
  }),
  JSON.stringify({
    case_id: "ws-claim",
    documents: [docId],
    output: { facts: [{ claim: "\u00a0\u2003 spaced \u0085", evidence: [{ document_id: ` ${docId}`, quote: `\t${quote}\u3000` }] }] },
  }),
  '{"case_id": "numbers", "output": {"facts": [{"claim": 599.0, "evidence": [{"document_id": "x", "quote": 1e400}]}]}}',
  `{"case_id": "qualifiers", "documents": ["${docId}"], "output": {"facts": [{"claim": "Q claim", "subject": "s", "relation": null, "object": 3.0, "scopes": [1, 2.50, 123456789012345678901234567890], "valid_from": {"2": "b", "1": "a", "__proto__": {"x": 1}}, "conditions": [], "extra": 1, "evidence": [{"document_id": "${docId}", "quote": "${quote}", "section_id": "preamble"}]}]}}`,
  // Qualifiers nested deeper than the readers' limit: the case explorer cannot read this line back.
  `{"case_id": "deep-qualifier", "documents": ["${docId}"], "output": {"facts": [{"claim": "Deep", "conditions": ${"[".repeat(70)}${"]".repeat(70)}, "evidence": [{"document_id": "${docId}", "quote": "${quote}"}]}]}}`,
  '{"case_id": "dup-key", "output": {"facts": [], "facts": [{"claim": "k", "evidence": []}]}}',
  '{"case_id": "escapes", "output": {"facts": [{"claim": "tab\\tquote\\" \\u00e9 \\ud83d\\ude00", "evidence": [{"document_id": "a/b", "quote": "q"}]}]}}',
];
const REJECTIONS = join(OUT, "facts-rejections.jsonl");
writeFileSync(
  REJECTIONS,
  Buffer.concat([Buffer.from(`${[...factLines.slice(0, 1500), ...odd, ...factLines.slice(1500)].join("\n")}\n`), Buffer.from([0xff, 0xfe, 0x0a])]),
);

const bench = (extra) => ["evidence", DOCS, "--facts", FACTS, ...extra];
const configs = [
  ["bench", bench([])],
  ["bench-current", bench(["--current", CURRENT, "--gate", "accepted_rate>=0.9"])],
  ["bench-shard0", bench(["--shard", "0/2"])],
  ["bench-shard1", bench(["--shard", "1/2"])],
  ["bench-merged", ["merge", "@bench-shard0/report.json", "@bench-shard1/report.json"]],
  ["rejections", ["evidence", DOCS, "--facts", REJECTIONS, "--current", CURRENT]],
  ["rejections-strict", ["evidence", DOCS, "--facts", REJECTIONS, "--strict", "--report", "json,md"]],
  // The example as scripts/output-snapshot.mjs runs it.
  ["example", ["evidence", ex("docs"), ...["facts", "located", "materials", "current"].flatMap((f) => [`--${f}`, ex(f)]), "--gate", "accepted_rate>=0.3"]],
];

function normalise(file, bytes) {
  if (file === "report.json") {
    const j = JSON.parse(bytes.toString("utf8"));
    delete j.system;
    delete j.elapsed_seconds;
    return JSON.stringify(j);
  }
  if (file.endsWith(".xml")) return bytes.toString("utf8").replace(/ time="[^"]*"/g, "");
  if (file.endsWith(".md") || file.endsWith(".html")) {
    return bytes
      .toString("utf8")
      .split("\n")
      .filter((l) => !/elapsed|seconds|git|node v|mari_version|config.hash|timestamp|generated/i.test(l))
      .join("\n");
  }
  return bytes;
}

const digest = (x) => createHash("sha256").update(x).digest("hex");

function runAll(bin, side) {
  const results = {};
  for (const [name, argv] of configs) {
    if (only !== null && !name.startsWith(only)) continue;
    const dir = join(OUT, side, name);
    rmSync(dir, { recursive: true, force: true });
    const resolved = argv.map((a) => (a.startsWith("@") ? join(OUT, side, a.slice(1)) : a));
    const r = spawnSync(process.execPath, [join(bin, "bin/mari.js"), ...resolved, "--out", dir, "--progress", "none"], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    const files = {};
    mkdirSync(dir, { recursive: true });
    for (const f of readdirSync(dir).sort()) files[f] = digest(normalise(f, readFileSync(join(dir, f))));
    results[name] = { status: r.status, stdout: r.stdout.replaceAll(join(OUT, side), "OUT"), stderr: r.stderr.replaceAll(join(OUT, side), "OUT"), files };
  }
  return results;
}

const a = runAll(base, "a");
const b = runAll(ROOT, "b");
let failed = 0;
for (const name of Object.keys(a)) {
  const x = a[name];
  const y = b[name];
  const problems = [];
  if (x.status !== y.status) problems.push(`exit ${x.status} vs ${y.status}`);
  if (x.stdout !== y.stdout) problems.push("stdout differs");
  if (x.stderr !== y.stderr) problems.push("stderr differs");
  const names = [...new Set([...Object.keys(x.files), ...Object.keys(y.files)])].sort();
  for (const f of names) if (x.files[f] !== y.files[f]) problems.push(`${f} differs`);
  console.log(
    `${problems.length === 0 ? "same" : "DIFF"}  ${name} (exit ${y.status}; ${Object.keys(y.files).join(", ")})${problems.length ? `\n  ${problems.join("\n  ")}` : ""}`,
  );
  failed += problems.length > 0 ? 1 : 0;
}
process.exit(failed > 0 ? 1 : 0);
