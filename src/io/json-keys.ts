// Repeated keys in a JSON object. JSON.parse keeps the last of them without a word, so a config
// with two "documents" sections would lose the first section's gates. Whole-file JSON inputs (the
// config, costs, grids) are checked here and a repeated key is refused with its line.

/** The first key that appears twice in one object of `text` (valid JSON), with its 1-based line; null when none does. */
export function findRepeatedKey(text: string): { key: string; line: number } | null {
  // One frame per open container: the keys seen so far (objects) or null (arrays).
  const frames: Array<Set<string> | null> = [];
  let expectKey = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    else if (c === 0x7b /* { */) {
      frames.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      frames.push(null);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = frames.at(-1) instanceof Set;
    } else if (c === 0x22 /* " */) {
      // Strings in valid JSON hold no raw line breaks, so the line count stays exact.
      let end = i + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c /* \ */ ? 2 : 1;
      const keys = frames.at(-1);
      if (expectKey && keys instanceof Set) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return { key, line };
        keys.add(key);
        expectKey = false;
      }
      i = end;
    }
  }
  return null;
}
