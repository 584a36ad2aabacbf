// The pool task module of a document eval, named apart from it: range.ts holds the task (it scores
// dump blocks, aggregates ranges and bootstraps), and a module may not import itself lazily (the
// CLI's bundle cannot split such an import).
import type { TaskModuleRef } from "../../pool/pool.js";
import { siblingModuleUrl } from "../../pool/module-url.js";

export const DOCUMENT_TASK_MODULE: TaskModuleRef = {
  url: siblingModuleUrl(import.meta.url, "range"),
  load: () => import("./range.js"),
};
