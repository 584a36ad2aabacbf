// Writes predictions as a JSONL dump that `mari eval --predictions` reads: to a file (atomically:
// it appears under its name only when complete) or to stdout (streamed).
import { AtomicLineWriter } from "../io/atomic-write.js";
import type { Prediction } from "./types.js";
import { removeDumpMeta } from "./dump-meta.js";

export interface DumpSink {
  write(prediction: Prediction): Promise<void>;
  /** Makes the dump final (renames the file into place / drains stdout). */
  commit(): Promise<void>;
  /** Drops a partial file dump. */
  abort(): Promise<void>;
}

export function predictionJsonLine(prediction: Prediction): string {
  return `${JSON.stringify(prediction)}\n`;
}

/** Stdout, with back-pressure; a closed pipe (`mari predict … | head`) surfaces as an EPIPE error. */
function stdoutSink(): DumpSink {
  let failure: Error | undefined;
  const onError = (err: Error) => {
    failure ??= err;
  };
  process.stdout.on("error", onError);
  return {
    write: (prediction) =>
      new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        const more = process.stdout.write(predictionJsonLine(prediction), (err) => {
          if (err) reject(err);
        });
        if (more) resolve();
        else process.stdout.once("drain", resolve);
      }),
    commit: () =>
      new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        process.stdout.write("", () => (failure ? reject(failure) : resolve()));
      }),
    abort: async () => {},
  };
}

export function isClosedPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === "EPIPE";
}

export async function openDumpSink(outPath?: string): Promise<DumpSink> {
  if (outPath === undefined || outPath === "-") return stdoutSink();
  const writer = await AtomicLineWriter.open(outPath);
  return {
    write: (prediction) => writer.write(predictionJsonLine(prediction)),
    commit: async () => {
      // A new dump never sits beside the meta.json of an earlier one (eval would copy the old
      // run's model and usage into its report): the old one goes first, the new one is written
      // after the dump, and a failure to write it leaves no meta rather than a stale one.
      await removeDumpMeta(outPath);
      await writer.commit();
    },
    abort: () => writer.abort(),
  };
}

/** Writes a whole set of predictions to a dump file (atomically) — e.g. the lexical judge's output. */
export async function writePredictionDump(outPath: string, predictions: Iterable<Prediction>): Promise<void> {
  const sink = await openDumpSink(outPath);
  try {
    for (const prediction of predictions) await sink.write(prediction);
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  }
}
