import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/io/errors.js";
import { loadMariConfig, pickOption } from "../../src/gates/run-config.js";
import { combineGates, gateName, parseGateFlag } from "../../src/gates/spec.js";
import { tempDir } from "../support/cli.js";

const { dir, cleanup } = tempDir();
afterAll(cleanup);

function project(name: string, config: unknown): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "mari.config.json"), typeof config === "string" ? config : JSON.stringify(config));
  return root;
}

describe("mari.config.json", () => {
  it("is optional: no file in the working directory gives an empty config", async () => {
    const root = join(dir, "empty");
    mkdirSync(root);
    expect(await loadMariConfig(undefined, root)).toEqual({ path: null, gates: [] });
  });

  it("reads gates in every accepted spelling and resolves paths against the file", async () => {
    const root = project("full", {
      $schema: "./schema.json",
      out: "/abs/out",
      report: ["json", "md"],
      workers: 2,
      progress: "plain",
      strict: true,
      documents: {
        gate: ["accuracy>=0.6", "revision_cost<=0.4"],
        max_drop: { macro_f1: 0.02 },
        max_invalid_rate: "5%",
        baseline: "base/report.json",
        seed: 3,
      },
    });
    const config = await loadMariConfig(undefined, root, "documents");
    expect(config.path).toBe(join(root, "mari.config.json"));
    expect(config.gates.map(gateName)).toEqual(["accuracy>=0.6", "revision_cost<=0.4", "max_drop macro_f1=0.02", "max_invalid_rate=0.05"]);
    expect(config.gates.every((g) => g.source === "config")).toBe(true);
    expect(config).toMatchObject({
      baseline: join(root, "base/report.json"),
      out: "/abs/out",
      report: ["json", "md"],
      seed: 3,
      workers: 2,
      progress: "plain",
      strict: true,
    });
    const strings = project("strings", { documents: { gate: "accuracy>=0.5", max_drop: ["accuracy=0.01"], max_invalid_rate: 3 }, pairs: { grid: "full" } });
    const other = await loadMariConfig(join(strings, "mari.config.json"), undefined, "documents");
    expect(other.gates.map(gateName)).toEqual(["accuracy>=0.5", "max_drop accuracy=0.01", "max_invalid_count=3"]);
    expect(other.grid).toBeUndefined();
    expect((await loadMariConfig(join(strings, "mari.config.json"), undefined, "pairs")).grid).toBe("full");
  });

  it.each([
    ["unknown key", { documents: { gates: ["accuracy>=0.6"] } }, /unknown key "gates" in "documents"; did you mean "gate"\?/],
    ["misspelt key", { documents: { bootstrp: 10 } }, /unknown key "bootstrp" in "documents"; did you mean "bootstrap"\?/],
    ["key far from any", { evidence: { zzzzzzzz: 1 } }, /unknown key "zzzzzzzz" in "evidence"; known keys: .*gate, max_invalid_rate/],
    ["gate at the top", { gate: ["accuracy>=0.6"] }, /"gate" belongs in a task section: put it under "documents", "pairs" or "evidence"/],
    ["unknown section", { document: {} }, /unknown key "document" at the top; did you mean "documents"\?/],
    ["documents key in pairs", { pairs: { seed: 1 } }, /unknown key "seed" in "pairs"/],
    ["bad gate", { documents: { gate: ["accuracy>0.6"] } }, /config .*mari\.config\.json: documents\.gate: config gate "accuracy>0\.6"/],
    ["bad gate in another section", { evidence: { gate: ["accepted_rate>0.6"] } }, /evidence\.gate: config gate/],
    ["bad type", { documents: { seed: "zero" } }, /documents\.seed: /],
    ["bad progress", { progress: "loud" }, /progress: /],
    ["sentencer that does not exist", { documents: { sentencer: "intl" } }, /sentencer: /],
    ["bad JSON", "{ gate: [", /not valid JSON/],
    ["bad max_invalid_rate", { documents: { max_invalid_rate: 2.5 } }, /config max_invalid_rate "2\.5"/],
  ])("rejects a file with a %s as an input error naming it", async (name, config, message) => {
    const root = project(name.replace(/ /g, "-"), config);
    const load = loadMariConfig(undefined, root);
    await expect(load).rejects.toThrow(InputError);
    await expect(loadMariConfig(undefined, root)).rejects.toThrow(message);
  });

  it("accepts sentencer only as the canonical splitter, the one that runs", async () => {
    expect((await loadMariConfig(undefined, project("sentencer-canonical", { documents: { sentencer: "canonical" } }), "documents")).sentencer).toBe(
      "canonical",
    );
  });

  it("fails on an explicit path that does not exist", async () => {
    await expect(loadMariConfig(join(dir, "nope.json"))).rejects.toThrow(/config .*nope\.json: cannot read/);
  });

  it("lets flags win over config, and config over defaults", async () => {
    const config = await loadMariConfig(
      undefined,
      project("precedence", { workers: 4, documents: { gate: ["accuracy>=0.5", "macro_f1>=0.5"], seed: 9 } }),
      "documents",
    );
    const gates = combineGates([parseGateFlag("accuracy>=0.7")], config.gates);
    expect(gates.map(gateName)).toEqual(["accuracy>=0.7", "macro_f1>=0.5"]);
    expect(pickOption(1, config.seed, 0)).toBe(1);
    expect(pickOption(undefined, config.seed, 0)).toBe(9);
    expect(pickOption<number | undefined>(undefined, undefined, 0)).toBe(0);
  });
});
