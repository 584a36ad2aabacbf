import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/io/errors.js";
import { createProgress, parseProgressMode } from "../../src/cli/progress.js";

function sink(isTTY = false): Writable & { text: string; isTTY: boolean } {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      stream.text += String(chunk);
      done();
    },
  }) as Writable & { text: string; isTTY: boolean };
  stream.text = "";
  stream.isTTY = isTTY;
  return stream;
}

describe("progress", () => {
  it("plain mode prints every tenth of the total and a final line, to the given stream only", () => {
    const stream = sink();
    const stdoutWrite = process.stdout.write;
    let stdoutWrites = 0;
    process.stdout.write = ((...args: Parameters<typeof stdoutWrite>) => (stdoutWrites++, stdoutWrite.apply(process.stdout, args))) as typeof stdoutWrite;
    try {
      const clock = 0;
      const progress = createProgress({ mode: "plain", label: "scoring", total: 100, stream, now: () => clock });
      for (let i = 0; i < 100; i++) progress.tick();
      progress.done();
      progress.done();
    } finally {
      process.stdout.write = stdoutWrite;
    }
    expect(stdoutWrites).toBe(0);
    const lines = stream.text.trimEnd().split("\n");
    expect(lines).toHaveLength(11);
    // Lines on the way carry the rate and the time left (none yet: the clock has not moved).
    expect(lines[0]).toBe("scoring: 10/100 (10%) 0.0s, 0.0/s, eta ?");
    expect(lines[9]).toBe("scoring: 100/100 (100%) 0.0s, 0.0/s, eta ?");
    expect(lines[10]).toBe("scoring: 100/100 (100%) 0.0s done");
  });

  it("plain mode without a total prints on the clock", () => {
    const stream = sink();
    let clock = 0;
    const progress = createProgress({ mode: "plain", label: "reading", stream, now: () => clock });
    progress.tick(5);
    clock = 2500;
    progress.tick(5);
    progress.tick(1);
    progress.done();
    expect(stream.text).toBe("reading: 10 2.5s, 4.0/s\nreading: 11 2.5s done\n");
  });

  it("auto is plain off a terminal; none prints nothing", () => {
    const plain = sink(false);
    const p = createProgress({ mode: "auto", label: "x", total: 1, stream: plain, now: () => 0 });
    p.tick();
    p.done();
    expect(plain.text).toBe("x: 1/1 (100%) 0.0s, 0.0/s, eta ?\nx: 1/1 (100%) 0.0s done\n");
    const silent = sink(true);
    const n = createProgress({ mode: "none", label: "x", total: 1, stream: silent });
    n.tick();
    n.done();
    expect(silent.text).toBe("");
  });

  it("the rate and the time left as m:ss once the clock moves", () => {
    const stream = sink();
    let clock = 0;
    const progress = createProgress({ mode: "plain", label: "scoring", total: 1000, stream, now: () => clock });
    clock = 10_000;
    progress.tick(100);
    expect(stream.text).toBe("scoring: 100/1000 (10%) 10.0s, 10.0/s, eta 1:30\n");
  });

  it("bar mode draws on the given stream", () => {
    const stream = sink(true);
    const bar = createProgress({ mode: "bar", label: "scoring", total: 4, stream });
    bar.tick(4);
    bar.done();
    expect(stream.text).toContain("scoring [");
    expect(stream.text).toContain("4/4");
  });

  it("validates --progress", () => {
    expect(parseProgressMode(undefined)).toBe("auto");
    expect(parseProgressMode("plain")).toBe("plain");
    expect(() => parseProgressMode("fancy")).toThrow(InputError);
  });

  it("a log line on a terminal bar gets a line of its own, and the bar is redrawn under it", () => {
    const stream = sink(true);
    const progress = createProgress({ mode: "bar", label: "judging", total: 10, stream });
    for (let i = 0; i < 3; i++) progress.tick();
    progress.log('mari predict: case "x" run 0: answer is not JSON');
    const at = stream.text.indexOf("mari predict: case");
    expect(stream.text.slice(at - 5, at)).toBe("\r\u001b[2K");
    const after = stream.text.slice(at);
    expect(after.split("\n")[0]).toBe('mari predict: case "x" run 0: answer is not JSON');
    expect(after.slice(after.indexOf("\n"))).toContain("3/10");
    progress.done();
    progress.log("after the bar");
    expect(stream.text.endsWith("after the bar\n")).toBe(true);
  });
});
