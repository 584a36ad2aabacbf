import { describe, expect, it } from "vitest";
import { csvCell } from "../../src/tasks/pairs/sweep-report.js";

describe("sweep.csv cells", () => {
  it("neutralises spreadsheet formulas in text and quotes per RFC 4180", () => {
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell("@x")).toBe("'@x");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("=a,b")).toBe(`"'=a,b"`);
    expect(csvCell('say "hi"')).toBe(`"say ""hi"""`);
    expect(csvCell("update_recall>=0.6")).toBe("update_recall>=0.6");
  });

  it("writes numbers and booleans as themselves, null as empty", () => {
    expect(csvCell(-0.5)).toBe("-0.5");
    expect(csvCell(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
  });
});
