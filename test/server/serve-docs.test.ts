// docs/serve.md shows the trainer examples as they are in examples/ (the files the trainer tests
// run), and its OpenRLHF command lines use only flags that the OpenRLHF version each is written for
// accepts (recorded in fixtures/openrlhf-flags.json from OpenRLHF's argument parser).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/cli.js";

const doc = readFileSync(join(ROOT, "docs/serve.md"), "utf8");

function blocksUnder(heading: string, language: string): string[] {
  const start = doc.indexOf(heading);
  expect(start, heading).toBeGreaterThan(-1);
  const end = doc.indexOf("\n## ", start + heading.length);
  const section = doc.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
}

describe("docs/serve.md", () => {
  it.each([
    ["## From TRL", "examples/trl_reward.py"],
    ["## From verl", "examples/verl_reward.py"],
  ])("%s shows %s as it is", (heading, file) => {
    expect(blocksUnder(heading, "python")).toEqual([readFileSync(join(ROOT, file), "utf8")]);
  });

  it("gives OpenRLHF's command line in both flag spellings, each with the flags its versions accept", () => {
    const flags = JSON.parse(readFileSync(join(ROOT, "test/server/fixtures/openrlhf-flags.json"), "utf8"));
    const blocks = blocksUnder("### Pointing OpenRLHF at it", "sh");
    expect(blocks).toHaveLength(2);
    const used = (block: string): string[] => [...block.slice(block.indexOf("openrlhf.cli.train_ppo_ray")).matchAll(/(--[a-z_.]+)/g)].map((m) => m[1]!);
    const [after, before] = blocks as [string, string];
    expect(after).toMatch(/^# OpenRLHF >= 0\.10\.2/);
    expect(before).toMatch(/^# OpenRLHF 0\.6 to 0\.10\.1/);
    expect(used(after)).toEqual(["--data.prompt_dataset", "--data.input_key", "--data.label_key", "--reward.remote_url"]);
    for (const flag of used(after)) expect(flags.from_0_10_2).toContain(flag);
    for (const flag of used(before)) expect(flags.before_0_10_2).toContain(flag);
    expect(used(before)).toHaveLength(4);
  });
});
