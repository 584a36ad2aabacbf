// Whether a file is a pair corpus at all, decided once from its first record (docs/pairs.md, "Input").
import { InputError } from "../../io/errors.js";

/** Fields that make a record look like a document-slice case rather than a pair. */
const DOCUMENT_FIELDS = ["text", "sentences", "document", "gold_sentence_ids"];

/**
 * Throws once, for the whole file, when its first record has neither "new" nor "old" but fields of
 * a document-slice case: the file is not a pair corpus (a document slice given to sweep or classify), and rejecting every record as
 * bad_new would only bury that in one message per line.
 */
export function assertPairCorpus(path: string, record: Record<string, unknown> | undefined, where: string): void {
  if (record === undefined || Object.hasOwn(record, "new") || Object.hasOwn(record, "old")) return;
  // A pair record missing its texts is an ordinary rejection (bad_new); a document case is not.
  if (!DOCUMENT_FIELDS.some((field) => Object.hasOwn(record, field))) return;
  const keys = Object.keys(record);
  throw new InputError(
    `${path}: this is not a pair corpus: its records need "new" and "old" texts, and the first (${where}) has ${
      keys.length === 0
        ? "no keys"
        : `keys ${keys
            .slice(0, 8)
            .map((k) => `"${k}"`)
            .join(", ")}`
    }; it looks like a document slice, which \`mari eval SLICE --predictions DUMP\` scores`,
  );
}
