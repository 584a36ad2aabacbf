// Evidence contracts (docs/evidence.md): documents, sections, parseFacts,
// artifact and located evidence, dependencies, claim states. Pure: no I/O, no Node imports.
export * from "./errors.js";
export * from "../python/text.js";
export * from "../python/values.js";
export * from "../python/json.js";
export * from "./sha256.js";
export * from "./documents.js";
export * from "./sections.js";
export * from "./grounding.js";
export * from "./facts.js";
export * from "./refs.js";
export * from "./locate.js";
export * from "./located.js";
export * from "./artifacts.js";
export * from "./dependencies.js";
export * from "./claim-state.js";
