// Module resolution hooks of unloadable-command.mjs (they run on the loader thread).
let target = "";

export function initialize(data) {
  target = `/dist/cli/commands/${data.command}.js`;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.endsWith(target)) throw new Error(`injected fault: cannot load ${resolved.url}`);
  return resolved;
}
