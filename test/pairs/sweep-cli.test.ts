// The sweep through the built CLI (run `npm run build` first): files, exit codes, and identical
// output for any worker count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, runMari, tempDir } from "../support/cli.js";
import { MIXED_PAIRS, writeFixture } from "./fixtures.js";

const CORPUS = join(ROOT, "datasets/memory-pairs/mari-pairs.jsonl");
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

function readAll(out: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(out)
      .sort()
      .map((f) => [f, readFileSync(join(out, f), "utf8")]),
  );
}

describe("mari sweep", () => {
  it("writes the same files for 1 and 3 workers over the full grid", async () => {
    // The corpus four times over (644 pairs): enough for three chunks, so three worker threads run.
    const lines = readFileSync(CORPUS, "utf8").trim().split("\n");
    const repeated = [0, 1, 2, 3].flatMap((k) => lines.map((l) => JSON.stringify({ ...JSON.parse(l), id: `${JSON.parse(l).id}#${k}` })));
    const pairs = writeFixture(dir, "corpus-x4.jsonl", `${repeated.join("\n")}\n`);
    const outputs: Record<string, string>[] = [];
    for (const workers of ["1", "3"]) {
      const out = join(dir, `full-${workers}`);
      const r = await runMari(["sweep", pairs, "--grid", "full", "--out", out, "--workers", workers, "--progress", "none"]);
      expect([0, 1]).toContain(r.code);
      expect(r.stderr).toContain(workers === "1" ? "(in-process)" : "(3 worker threads)");
      outputs.push(readAll(out));
    }
    expect(Object.keys(outputs[0]!)).toEqual(["pareto.svg", "report.html", "report.md", "sweep.csv", "sweep.json"]);
    expect(outputs[1]).toEqual(outputs[0]);
    const sweep = JSON.parse(outputs[0]!["sweep.json"]!);
    expect(sweep.rows).toHaveLength(81);
    expect(sweep.pairs.labelled).toBe(644);
    expect(outputs[0]!["sweep.csv"]!.split("\r\n")).toHaveLength(83); // header + 81 rows + final newline
  });

  it("default grid: 9 rows, the default first, best and Pareto front named", async () => {
    const out = join(dir, "default");
    const r = await runMari(["sweep", CORPUS, "--out", out, "--workers", "1", "--progress", "none"]);
    const sweep = JSON.parse(readFileSync(join(out, "sweep.json"), "utf8"));
    expect(sweep.rows).toHaveLength(9);
    expect(sweep.rows[0].config).toEqual({ overlapFloor: 0.5, residueMax: 2, negOverlapFloor: 0.6, aliasPrefixMin: 4 });
    expect(sweep.pareto_front.length).toBeGreaterThan(0);
    expect(r.code).toBe(sweep.best === null ? 1 : 0);
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("## Pareto front");
    expect(readFileSync(join(out, "pareto.svg"), "utf8")).toMatch(/^<svg /);
  });

  it("takes a grid file and exits 1 when no config passes the gates", async () => {
    const pairs = writeFixture(dir, "mixed<b>.jsonl", MIXED_PAIRS);
    const grid = writeFixture(dir, "grid.json", JSON.stringify({ residueMax: [1, 2], overlapFloor: [0.5] }));
    const out = join(dir, "grid-file");
    const r = await runMari(["sweep", pairs, "--grid", grid, "--out", out, "--workers", "2", "--progress", "none"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("best: none");
    const sweep = JSON.parse(readFileSync(join(out, "sweep.json"), "utf8"));
    expect(sweep.rows.map((row: { config: { residueMax: number } }) => row.config.residueMax)).toEqual([1, 2]);
    expect(sweep.best).toBeNull();
    expect(sweep.pairs).toEqual({ records: 7, labelled: 6, unlabelled: 1, rejected: 0 });
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toContain("mixed&lt;b&gt;.jsonl");
    expect(html).not.toContain("<b>");
    expect(html).toContain("<svg ");
  });

  it("reads grid, costs and gates from mari.config.json, flags winning", async () => {
    const pairs = writeFixture(dir, "mixed-cfg.jsonl", MIXED_PAIRS);
    writeFixture(dir, "grid-cfg.json", JSON.stringify({ aliasPrefixMin: [3, 4, 5] }));
    writeFixture(dir, "costs-cfg.json", JSON.stringify({ downrank_live: 7 }));
    const config = writeFixture(
      dir,
      "mari.config.json",
      JSON.stringify({
        pairs: {
          grid: "grid-cfg.json",
          costs: "costs-cfg.json",
          gate: ["update_recall>=0.5", "restatement_to_update_rate<=0.5", "distinct_to_update_rate<=0.5"],
        },
      }),
    );
    const out = join(dir, "cfg");
    const r = await runMari(["sweep", pairs, "--config", config, "--out", out, "--workers", "1", "--progress", "none", "--quiet"]);
    expect(r.code).toBe(0);
    const sweep = JSON.parse(readFileSync(join(out, "sweep.json"), "utf8"));
    expect(sweep.rows).toHaveLength(3);
    expect(sweep.unit_prices.downrank_live).toBe(7);
    expect(sweep.rows[0].gates.map((g: { name: string }) => g.name)).toEqual([
      "update_recall>=0.5",
      "restatement_to_update_rate<=0.5",
      "distinct_to_update_rate<=0.5",
    ]);
    // All rows tie on cost; the default (aliasPrefixMin 4) is nearest.
    expect(sweep.best.config.aliasPrefixMin).toBe(4);
    const flags = await runMari(["sweep", pairs, "--config", config, "--grid", "default", "--out", join(dir, "cfg2"), "--workers", "1", "--quiet"]);
    expect(flags.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "cfg2", "sweep.json"), "utf8")).rows).toHaveLength(9);
  });

  it("exits 2 on an unusable grid file and on bad --workers", async () => {
    const pairs = writeFixture(dir, "mixed.jsonl", MIXED_PAIRS);
    const grid = writeFixture(dir, "bad-grid.json", JSON.stringify({ overlapFloor: [0] }));
    const r = await runMari(["sweep", pairs, "--grid", grid, "--out", join(dir, "bad"), "--progress", "none"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad-grid\.json: grid config .* is not usable/);
    const workers = await runMari(["sweep", pairs, "--workers", "0", "--out", join(dir, "w")]);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toMatch(/--workers/);
  });
});
