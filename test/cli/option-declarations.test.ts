// The option table's own consistency: what a command lists exists, is spelt once per command, has
// help for that command; integer options have bounds their default lies in; a config key is one
// option's.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { OPTIONS, optionHelp, type OptionSpec } from "../../src/core/options/index.js";
import { addOptions, integerOption } from "../../src/cli/options/add-options.js";
import { COMMAND_OPTIONS, type OptionCommand } from "../../src/cli/options/command-options.js";

const commands = Object.keys(COMMAND_OPTIONS) as OptionCommand[];
const specs = Object.entries(OPTIONS) as [string, OptionSpec][];

describe("the option table", () => {
  it("every command's flags are distinct and each has help for that command", () => {
    for (const command of commands) {
      const flags = COMMAND_OPTIONS[command].map((name) => OPTIONS[name].flag);
      expect(new Set(flags).size, command).toBe(flags.length);
      for (const name of COMMAND_OPTIONS[command]) expect(optionHelp(OPTIONS[name], command).length, `${command} ${name}`).toBeGreaterThan(0);
    }
  });

  it("every declared option is taken by some command", () => {
    const taken = new Set<string>(commands.flatMap((command) => [...COMMAND_OPTIONS[command]]));
    expect(specs.map(([name]) => name).filter((name) => !taken.has(name))).toEqual([]);
  });

  it("an integer option's default lies within its bounds", () => {
    for (const [name, spec] of specs) {
      if (spec.min === undefined) continue;
      expect(spec.max, name).toBeGreaterThanOrEqual(spec.min);
      if (typeof spec.default === "number") {
        expect(spec.default, name).toBeGreaterThanOrEqual(spec.min);
        expect(spec.default, name).toBeLessThanOrEqual(spec.max!);
      }
    }
  });

  it("a config key belongs to one option", () => {
    const keys = specs.flatMap(([, spec]) => (spec.config ? [spec.config.key] : []));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("help writes the default once, where the text puts it", () => {
    expect(optionHelp(OPTIONS.bootstrap, "diff")).toBe("bootstrap resamples for the paired intervals (default 1000)");
    expect(optionHelp(OPTIONS.port, "serve")).toBe("port (default 8000; 0 = any free port, printed at start)");
    expect(optionHelp(OPTIONS.strict, "eval")).not.toContain("default");
  });

  it("an integer flag is read within its declared bounds", () => {
    expect(integerOption("bootstrap", "0")).toBe(0);
    expect(integerOption("bootstrap", undefined)).toBeUndefined();
    expect(() => integerOption("bootstrap", "1000001")).toThrow(/--bootstrap/);
    expect(() => integerOption("workers", "0")).toThrow(/--workers/);
  });

  it("commander gets each listed option once, in the listed order", () => {
    const command = addOptions(new Command("eval"), "eval");
    expect(command.options.map((o) => o.long)).toEqual(COMMAND_OPTIONS.eval.map((name) => OPTIONS[name].flag));
    // Flags left out stay undefined so a config value can win; repeatable ones start empty.
    command.parse(["--seed", "3"], { from: "user" });
    const opts = command.opts();
    expect(opts["seed"]).toBe("3");
    expect(opts["bootstrap"]).toBeUndefined();
    expect(opts["gate"]).toEqual([]);
  });
});
