// Library entry point: the pure core, for users who score inside their own training loop.
export { MARI_VERSION } from "./version.js";
export * from "./core/classifier/index.js";
export * from "./core/document/index.js";
export * from "./core/evidence/index.js";
export * from "./core/pairs/index.js";
