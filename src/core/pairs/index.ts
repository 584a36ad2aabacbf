// Memory-revision pair evaluation: the pure part (tallies, metrics, RevisionCost, gates, sweeps).
export * from "./classes.js";
export * from "./tally.js";
export * from "./costs.js";
export * from "./metrics.js";
export * from "./gates.js";
export * from "./input.js";
export * from "./sweep-grid.js";
export * from "./sweep-select.js";
export * from "./sweep-kernel.js";
