// Crashes: `--cache` on a full disk. A failed append is an InputError naming the cache
// (exit 2 in the CLI), not "internal error: ENOSPC". /dev/full is a real device that fails every
// write with ENOSPC, the nearest to a full disk a test can get without mounting one.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CacheAppender } from "../../src/judges/cache.js";
import { InputError } from "../../src/io/errors.js";

describe.skipIf(!existsSync("/dev/full"))("--cache on a full disk", () => {
  it("an append that hits ENOSPC is an InputError naming the cache", async () => {
    const appender = await CacheAppender.open("/dev/full");
    const entry = { key: "k", case_id: "c", run: 0, prediction: { judgment: false, evidence_sentence_ids: [] } } as never;
    const failed = await appender.append(entry).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(InputError);
    expect((failed as Error).message).toBe("--cache /dev/full: cannot write (ENOSPC); the lines written before stay usable");
    await expect(appender.close()).rejects.toBeInstanceOf(InputError);
  });
});
