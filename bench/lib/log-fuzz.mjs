// The fourth round's fuzzers of eval-tool logs, shared by test/hostile/log-fuzz.test.ts (a few
// hundred seeded mutants, in the suite) and bench/hostile-logs.mjs (≥ 2,000 of each kind, each
// in a child process bounded in time and memory). Two families:
// - `.eval` zips (inspect_ai): byte mutations of an honest archive, and structural ones aimed at
//   the local headers, the central directory and its end record (sizes, offsets, counts, methods,
//   overlapping entries, ZIP64 markers, declared sizes that lie).
// - JSON logs (inspect `.json`, promptfoo `.json` and `.jsonl`): values replaced by hostile ones
//   (nested 10^5 deep, long strings, wrong types), keys removed or renamed, invalid UTF-8,
//   truncation, byte flips.
// `checkMutant` runs one mutant through mari's real readers and says what happened: "input-error"
// (an InputError naming the file), "read" (every sample accounted for, nothing changed silently),
// or throws a FuzzFailure describing the crash or the silent change.

/** Mulberry32: a small seeded generator, so every run sees the same mutants. */
export function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const pick = (random, list) => list[Math.floor(random() * list.length)];
const int = (random, n) => Math.floor(random() * n);

const HOSTILE_U32 = [0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0xffff, 0x10000, 46, 30];
const LOCAL_FIELDS = [4, 6, 8, 14, 18, 22, 26, 28];
const CENTRAL_FIELDS = [8, 10, 16, 20, 24, 28, 30, 32, 42];
const EOCD_FIELDS = [8, 10, 12, 16, 20];

function signatures(zip, sig) {
  const at = [];
  for (let i = zip.indexOf(sig); i >= 0; i = zip.indexOf(sig, i + 1)) at.push(i);
  return at;
}

function writeField(buffer, at, random) {
  if (at + 4 <= buffer.length && random() < 0.6) buffer.writeUInt32LE(pick(random, HOSTILE_U32) >>> 0, at);
  else if (at + 2 <= buffer.length) buffer.writeUInt16LE(pick(random, [0, 1, 8, 93, 99, 0xffff, 12]), at);
}

/** One mutant of a zip archive's bytes. */
export function mutateZip(zip, random) {
  const bytes = Buffer.from(zip);
  const locals = signatures(bytes, Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const centrals = signatures(bytes, Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const rounds = 1 + int(random, 3);
  let out = bytes;
  for (let r = 0; r < rounds; r++) {
    switch (int(random, 9)) {
      case 0: // a random byte anywhere
        out[int(random, out.length)] = int(random, 256);
        break;
      case 1: // a local header field
        if (locals.length > 0) writeField(out, pick(random, locals) + pick(random, LOCAL_FIELDS), random);
        break;
      case 2: // a central directory field
        if (centrals.length > 0) writeField(out, pick(random, centrals) + pick(random, CENTRAL_FIELDS), random);
        break;
      case 3: // the end record
        if (eocd >= 0) writeField(out, eocd + pick(random, EOCD_FIELDS), random);
        break;
      case 4: // cut short
        out = out.subarray(0, int(random, out.length));
        break;
      case 5: {
        // a central entry's size or offset moved by a little (an off-by-one archive)
        if (centrals.length === 0) break;
        const at = pick(random, centrals) + pick(random, [20, 24, 42]);
        if (at + 4 <= out.length) out.writeUInt32LE((out.readUInt32LE(at) + pick(random, [1, -1, 7, -30, 1000])) >>> 0, at);
        break;
      }
      case 6: {
        // every central entry points at one member: overlapping entries
        if (centrals.length < 2 || centrals[0] + 46 > out.length) break;
        const target = out.readUInt32LE(centrals[0] + 42);
        for (const c of centrals) if (c + 46 <= out.length) out.writeUInt32LE(target, c + 42);
        break;
      }
      case 7: // a run of bytes inside a member's data
        if (locals.length > 0) {
          const at = pick(random, locals) + 30 + int(random, 200);
          for (let i = 0; i < 8 && at + i < out.length; i++) out[at + i] = int(random, 256);
        }
        break;
      default: // ZIP64 markers where there is no ZIP64 field
        if (centrals.length > 0) {
          const c = pick(random, centrals);
          if (c + 46 <= out.length) out.writeUInt32LE(0xffffffff, c + pick(random, [20, 24, 42]));
        }
    }
  }
  return Buffer.from(out);
}

const DEEP = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
const HOSTILE_VALUES = [
  () => DEEP,
  () => `{"a":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`,
  () => `"${"x".repeat(100_000)}"`,
  () => "null",
  () => "[]",
  () => "{}",
  () => "-1",
  () => "1e400",
  () => "9007199254740993",
  () => '"\\ud800"',
  () => '"attachment://nope"',
  () => "true",
  () => '""',
  () => '[{"type":"text","text":7}]',
];
const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "id",
  "epoch",
  "case_id",
  "vars",
  "output",
  "testIdx",
  "promptIdx",
  "provider",
  "error",
  "samples",
  "results",
];

/** One mutant of a JSON text (a whole log, or one JSONL line): text-level, so any byte can appear. */
export function mutateJsonText(text, random) {
  const at = () => int(random, text.length + 1);
  switch (int(random, 9)) {
    case 0: {
      // a scalar value replaced by a hostile one
      const values = [...text.matchAll(/: ?("(?:[^"\\]|\\.)*"|-?[\d.eE+]+|true|false|null)/g)];
      if (values.length === 0) return Buffer.from(text);
      const m = pick(random, values);
      const start = m.index + m[0].indexOf(m[1]);
      return Buffer.from(text.slice(0, start) + pick(random, HOSTILE_VALUES)() + text.slice(start + m[1].length));
    }
    case 1: // a key renamed
      return Buffer.from(text.replace(/"([a-zA-Z_]+)":/, () => `"${pick(random, HOSTILE_KEYS)}":`));
    case 2: {
      // a key renamed somewhere further in
      const keys = [...text.matchAll(/"([a-zA-Z_]+)":/g)];
      if (keys.length === 0) return Buffer.from(text);
      const m = pick(random, keys);
      return Buffer.from(`${text.slice(0, m.index)}"${pick(random, HOSTILE_KEYS)}":${text.slice(m.index + m[0].length)}`);
    }
    case 3: // invalid UTF-8 inside
      return Buffer.concat([Buffer.from(text.slice(0, at())), Buffer.from([pick(random, [0xff, 0xc3, 0xed, 0x80, 0xfe])]), Buffer.from(text.slice(at()))]);
    case 4: // cut short
      return Buffer.from(text.slice(0, at()));
    case 5: {
      // a random byte
      const bytes = Buffer.from(text);
      bytes[int(random, bytes.length)] = int(random, 256);
      return bytes;
    }
    case 6: // a BOM, or a UTF-16 BOM
      return Buffer.concat([
        Buffer.from(
          pick(random, [
            [0xef, 0xbb, 0xbf],
            [0xff, 0xfe],
          ]),
        ),
        Buffer.from(text),
      ]);
    case 7: {
      // a structural value (an object or array) replaced by a hostile one
      const opens = [...text.matchAll(/: ?[[{]/g)];
      if (opens.length === 0) return Buffer.from(text);
      const m = pick(random, opens);
      return Buffer.from(`${text.slice(0, m.index)}:${pick(random, HOSTILE_VALUES)()},"_":${text.slice(m.index + m[0].length - 1)}`);
    }
    default:
      return Buffer.from(text);
  }
}

/** A JSONL file's mutant: each line kept or mutated. */
export function mutateJsonl(lines, random) {
  const parts = [];
  for (const line of lines) parts.push(random() < 0.3 ? mutateJsonText(line, random) : Buffer.from(line), Buffer.from("\n"));
  return Buffer.concat(parts);
}

/** What a mutant showed: `kind` is "crash" (anything but an InputError escaped) or "silent-change". */
export class FuzzFailure extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
function validUtf8(bytes) {
  try {
    UTF8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs one mutant through mari's readers and the eval: `api` is { detectEvalLog, evalLogLines,
 * evaluateDocuments, InputError } from src/ (the test) or dist/ (the bench). `honest` is the set
 * of dump lines of the unmutated log; for a zip (CRC-checked) every line read must be one of
 * them or a failed prediction saying why.
 */
export async function checkMutant(api, { path, bytes, family, honest, slicePath, outDir }) {
  let kind;
  let lines;
  try {
    kind = await api.detectEvalLog(path);
    if (kind === undefined) {
      // Not recognised as a log: the eval reads it as a dump, or refuses it.
      lines = null;
    } else {
      lines = await api.evalLogLines(path, kind);
    }
  } catch (err) {
    if (err instanceof api.InputError) return "input-error";
    throw new FuzzFailure("crash", `reading the log threw ${err?.stack ?? err}`);
  }
  if (lines !== null) {
    for (const line of lines) {
      if (line === null) continue; // invalid UTF-8: the dump reader rejects it
      if (line.includes("\uFFFD") && validUtf8(bytes)) {
        // U+FFFD only where the file has it (none of the honest logs does).
        if (!bytes.includes(Buffer.from("\uFFFD"))) throw new FuzzFailure("silent-change", `a line holds U+FFFD the file does not: ${line.slice(0, 200)}`);
      }
      if (line.includes("\uFFFD") && !validUtf8(bytes) && family !== "zip")
        throw new FuzzFailure("silent-change", `invalid UTF-8 became U+FFFD: ${line.slice(0, 200)}`);
      if (family === "zip" && !honest.has(line)) {
        const parsed = JSON.parse(line);
        const failed = parsed.error && parsed.error.code === "request_failed" && typeof parsed.error.message === "string";
        if (!failed) throw new FuzzFailure("silent-change", `a sample read from a damaged archive was scored as changed: ${line.slice(0, 300)}`);
      }
    }
  }
  let report;
  try {
    const outcome = await api.evaluateDocuments({ slicePath, dumpPath: path, outDir, formats: ["json"], workers: 1, bootstrap: 0 });
    report = outcome.report;
  } catch (err) {
    if (err instanceof api.InputError) return "input-error";
    throw new FuzzFailure("crash", `the eval threw ${err?.stack ?? err}`);
  }
  if (lines !== null && report.predictions.lines !== lines.length) {
    throw new FuzzFailure("silent-change", `the log has ${lines.length} samples or results, the report counts ${report.predictions.lines} lines`);
  }
  return "read";
}
