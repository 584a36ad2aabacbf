// Where a pool's task module is, by URL: apart from the pool itself, so that a module that only
// names its task (the rewards server, which opens its pool when first asked) does not load the pool.
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The URL of the module `name` (no extension) beside the module whose URL is `base` (its
 * `import.meta.url`): the `.ts` source under tsx or vitest, which the pool maps to its build for
 * threads (`compiledModuleUrl`), else the `.js` file of dist/.
 */
export function siblingModuleUrl(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith(".ts") ? ".ts" : ".js"}`, base);
}

/** Workers load compiled JavaScript: map `…/src/x.ts` to `…/dist/x.js`. */
export function compiledModuleUrl(url: URL): URL {
  const path = fileURLToPath(url);
  if (!path.endsWith(".ts")) return url;
  const mapped = path.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, "$1dist$2").replace(/\.ts$/, ".js");
  return pathToFileURL(mapped);
}
