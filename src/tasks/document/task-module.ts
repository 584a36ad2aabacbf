// The pool task module of a document eval, named apart from it: range.ts holds the task (it scores
// dump blocks, aggregates ranges and bootstraps), and a module may not import itself lazily (the
// CLI's bundle cannot split such an import).
import type { TaskModuleRef } from "../../pool/pool.js";

export const DOCUMENT_TASK_MODULE: TaskModuleRef = {
  // Under vitest this module is src/…/task-module.ts: the threads' URL names the source, mapped to dist/ by the pool.
  url: new URL(import.meta.url.endsWith(".ts") ? "./range.ts" : "./range.js", import.meta.url),
  load: () => import("./range.js"),
};
