// The lexical contradiction classifier (docs/classifier.md): is a new memory text a
// restatement of an old one, an update that makes it stale, or about something else?
import type { ClassifierConfig } from "./config.js";
import { DEFAULT_CONFIG } from "./config.js";
import { classifyFeatures } from "./decide.js";
import type { Verdict } from "./decide.js";
import { extractFeatures } from "./features.js";

export type { ClassifierConfig } from "./config.js";
export {
  ClassifierConfigError,
  CONFIG_KEYS,
  DEFAULT_CONFIG,
  parseConfigAssignments,
  validateClassifierConfig,
} from "./config.js";
export type { RevisionClass, Verdict } from "./decide.js";
export { classifyFeatures, formatFixed2 } from "./decide.js";
export type { TextFeatures } from "./features.js";
export { extractFeatures } from "./features.js";
export { extractEntities } from "./entities.js";
export { normalizeWord } from "./normalize-word.js";

/** Classifies `newText` against `oldText` (order matters: cues and negation are read from the new side). */
export function classify(newText: string, oldText: string, config: Readonly<ClassifierConfig> = DEFAULT_CONFIG): Verdict {
  return classifyFeatures(extractFeatures(newText), extractFeatures(oldText), config);
}
