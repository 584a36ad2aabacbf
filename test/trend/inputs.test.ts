// How `mari trend` names and orders its points: step numbers in checkpoint directory names,
// numeric name order, and the refusals of two reports at one x.
import { describe, expect, it } from "vitest";
import { naturalCompare, orderInputs, stepOf, type TrendInput } from "../../src/tasks/trend/inputs.js";

const input = (name: string): TrendInput => ({ path: `${name}/report.json`, name, step: stepOf(name) });

describe("trend inputs", () => {
  it("finds the step in the usual checkpoint names, and nowhere else", () => {
    expect(stepOf("ckpt-400")).toBe(400);
    expect(stepOf("global_step_400")).toBe(400);
    expect(stepOf("global_step400")).toBe(400);
    expect(stepOf("step400")).toBe(400);
    expect(stepOf("checkpoint-1200")).toBe(1200);
    expect(stepOf("run3-ckpt_0050")).toBe(50);
    expect(stepOf("Step_7")).toBe(7);
    expect(stepOf("timestep3")).toBeNull();
    expect(stepOf("final")).toBeNull();
    expect(stepOf("v2")).toBeNull();
  });

  it("orders by step when every name has one, else by name with numbers compared as numbers", () => {
    const steps = orderInputs(["ckpt-1000", "global_step_200", "step30"].map(input), undefined);
    expect(steps.axis).toBe("step");
    expect(steps.order.map((p) => p.step)).toEqual([30, 200, 1000]);
    const names = orderInputs(["ckpt-10", "final", "ckpt-9"].map(input), undefined);
    expect(names.axis).toBe("name");
    expect(names.order.map((p) => p.name)).toEqual(["ckpt-9", "ckpt-10", "final"]);
    expect(naturalCompare("a2", "a10")).toBeLessThan(0);
    expect(naturalCompare("a10", "a10")).toBe(0);
  });

  it("orders by time when asked, and refuses two reports at one step", () => {
    const times = new Map([
      ["b/report.json", 2],
      ["a/report.json", 3],
    ]);
    expect(orderInputs(["a", "b"].map(input), "time", times).order.map((p) => p.name)).toEqual(["b", "a"]);
    expect(() => orderInputs(["run1/ckpt-5", "ckpt-5"].map(input), undefined)).toThrow(/both at step 5/);
    expect(() => orderInputs(["ckpt-5", "final"].map(input), "step")).toThrow(/"final" has no step number/);
  });
});
