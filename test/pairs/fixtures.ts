// Small pair corpora whose verdicts at the default config are known (checked with `mari classify`).
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const line = (o: Record<string, unknown>) => JSON.stringify(o);

/**
 * gold → predicted: restatement→restatement (r1, identity), restatement→update (r2, value swap),
 * update→update (u1), update→distinct (u2, kind polarity), distinct→distinct (d1),
 * distinct→update (d2, value swap), and x1 unlabelled (predicted update).
 */
export const MIXED_PAIRS =
  [
    line({ id: "r1", new: "We use Postgres.", old: "we use  postgres.", gold: "restatement", kind: "value" }),
    line({ id: "r2", new: "The API timeout is 15 seconds.", old: "The API timeout is 25 seconds.", gold: "restatement", kind: "value" }),
    line({ id: "u1", new: "The cache TTL is 30 minutes.", old: "The cache TTL is 10 minutes.", gold: "update", kind: "value" }),
    line({ id: "u2", new: "Bananas are yellow.", old: "The server runs Linux.", gold: "update", kind: "polarity" }),
    line({ id: "d1", new: "Mars is red.", old: "The office opens at nine.", gold: "distinct" }),
    line({ id: "d2", new: "The cache TTL is 45 minutes.", old: "The cache TTL is 10 minutes.", gold: "distinct", note: "=HYPERLINK(1)" }),
    line({ id: "x1", new: "The cache TTL is 45 minutes.", old: "The cache TTL is 10 minutes." }),
  ].join("\n") + "\n";

/** Every verdict right: all default gates pass. */
export const PASSING_PAIRS =
  [
    line({ id: "r1", new: "We use Postgres.", old: "we use  postgres.", gold: "restatement" }),
    line({ id: "u1", new: "The cache TTL is 30 minutes.", old: "The cache TTL is 10 minutes.", gold: "update" }),
    line({ id: "d1", new: "Mars is red.", old: "The office opens at nine.", gold: "distinct" }),
  ].join("\n") + "\n";

export function writeFixture(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
