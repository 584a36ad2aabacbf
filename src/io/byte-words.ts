// A fixed text (a key, a marker, a tag) compared with bytes a 32-bit word at a time: its UTF-8
// bytes as the little-endian words a DataView reads at 0, 4, 8 …, the last one ending at its last
// byte (it may overlap the one before), so every byte is in a word and no read passes its end.
// Shared by the byte readers of dump lines (dump-bytes.ts, score-bytes.ts) and run lines
// (gates/side-reader.ts).

export interface ByteWords {
  readonly length: number;
  readonly words: Int32Array;
}

/** The words of `text`, which must be at least four bytes long. */
export function byteWords(text: string): ByteWords {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length < 4) throw new RangeError(`byteWords: "${text}" is shorter than a word`);
  const view = new DataView(bytes.buffer);
  const words = new Int32Array(Math.ceil(bytes.length / 4));
  for (let k = 0; k < words.length; k++) words[k] = view.getInt32(Math.min(4 * k, bytes.length - 4), true);
  return { length: bytes.length, words };
}

/** Whether `text` is at `at` of the bytes `view` reads, inside [0, end). */
export function byteWordsAt(view: DataView, at: number, end: number, text: ByteWords): boolean {
  const last = at + text.length - 4;
  if (at < 0 || last + 4 > end) return false;
  const words = text.words;
  const full = words.length - 1;
  for (let k = 0; k < full; k++) if (view.getInt32(at + 4 * k, true) !== words[k]) return false;
  return view.getInt32(last, true) === words[full];
}
