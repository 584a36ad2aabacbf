// The layer rule of ARCHITECTURE.md, checked by `npm run lint`: each folder of src/ imports only
// from the folders below it (core < io < report < gates < judges < pool < tasks < server < cli),
// and the core does no I/O.
const LAYERS = ["core", "io", "report", "gates", "judges", "pool", "tasks", "server", "cli"];

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer}-imports-upward`,
  comment: `src/${layer} may import only from ${LAYERS.slice(0, i).join(", ") || "itself"} (ARCHITECTURE.md)`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(i + 1).join("|")})/` },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "no-circular",
      comment: "no file reaches itself through its imports, type-only ones included (ARCHITECTURE.md)",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-does-io",
      comment: "src/core is pure: no file system, processes, network or threads",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^(node:)?(fs|fs/promises|child_process|net|http|https|worker_threads|readline|stream|os|process)$", dependencyTypes: ["core"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(test|dist|bench)/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports count as imports: a layer must not know an upper layer's types either.
    tsPreCompilationDeps: true,
  },
};
