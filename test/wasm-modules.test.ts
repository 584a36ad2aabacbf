// Every WebAssembly module scripts/build-wasm.mjs declares: the bytes committed in its *-wasm.ts
// file of src/ are those its source in wasm/ compiles to, so a change to the source cannot land
// without `npm run build:wasm`.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { compileWasm, WASM_MODULES } from "../scripts/build-wasm.mjs";

const ROOT = join(import.meta.dirname, "..");

describe("the committed WebAssembly modules", () => {
  it.each(WASM_MODULES)(
    "src's bytes of the module $name (wasm/) are its compiled form",
    async ({ name, out, constName }) => {
      const committed = (await import(pathToFileURL(join(ROOT, out)).href)) as Record<string, string>;
      const bytes = await compileWasm(name);
      expect(Buffer.from(committed[constName]!, "base64").equals(bytes)).toBe(true);
    },
    120_000,
  );
});
