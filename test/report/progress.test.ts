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
  it("plain mode prints one line per phase, when it ends, to the given stream only", () => {
    const stream = sink();
    const stdoutWrite = process.stdout.write;
    let stdoutWrites = 0;
    process.stdout.write = ((...args: Parameters<typeof stdoutWrite>) => (stdoutWrites++, stdoutWrite.apply(process.stdout, args))) as typeof stdoutWrite;
    try {
      let clock = 0;
      const progress = createProgress({ mode: "plain", label: "scoring", total: 100, stream, now: () => clock });
      for (let i = 0; i < 100; i++) {
        clock += 9; // 0.9 s in all: a short phase, one line
        progress.tick();
      }
      progress.done();
      progress.done();
    } finally {
      process.stdout.write = stdoutWrite;
    }
    expect(stdoutWrites).toBe(0);
    expect(stream.text).toBe("scoring: 100/100 (100%) 0.9s done\n");
  });

  it("plain mode prints a line on the way only for a phase still running after 30 s", () => {
    const stream = sink();
    let clock = 0;
    const progress = createProgress({ mode: "plain", label: "reading", stream, now: () => clock });
    progress.tick(5);
    clock = 29_000;
    progress.tick(5);
    clock = 31_000;
    progress.tick(1);
    progress.tick(1);
    progress.done();
    expect(stream.text).toBe("reading: 11 31.0s, 0.4/s\nreading: 12 31.0s done\n");
  });

  it("auto is plain off a terminal; none prints nothing", () => {
    const plain = sink(false);
    const p = createProgress({ mode: "auto", label: "x", total: 1, stream: plain, now: () => 0 });
    p.tick();
    p.done();
    expect(plain.text).toBe("x: 1/1 (100%) 0.0s done\n");
    const silent = sink(true);
    const n = createProgress({ mode: "none", label: "x", total: 1, stream: silent });
    n.tick();
    n.done();
    expect(silent.text).toBe("");
  });

  it("the rate and the time left as m:ss on a line on the way", () => {
    const stream = sink();
    let clock = 0;
    const progress = createProgress({ mode: "plain", label: "scoring", total: 1000, stream, now: () => clock });
    clock = 40_000;
    progress.tick(100);
    expect(stream.text).toBe("scoring: 100/1000 (10%) 40.0s, 2.5/s, eta 6:00\n");
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

  it("a log line on a terminal bar gets a line of its own above the bar, the cursor never saved or restored", () => {
    const stream = sink(true);
    const progress = createProgress({ mode: "bar", label: "judging", total: 10, stream });
    for (let i = 0; i < 3; i++) progress.tick();
    progress.log('mari predict: case "x" run 0: answer is not JSON');
    const at = stream.text.indexOf("mari predict: case");
    // The bar's line is erased, the message written in its place with line wrapping on, the bar drawn again under it.
    expect(stream.text.slice(at - 9, at)).toBe("\u001b[2K\u001b[?7h");
    const after = stream.text.slice(at);
    expect(after.split("\n")[0]).toBe('mari predict: case "x" run 0: answer is not JSON');
    expect(after.slice(after.indexOf("\n"))).toContain("3/10");
    progress.done();
    progress.log("after the bar");
    expect(stream.text.endsWith("after the bar\n")).toBe(true);
    // ESC 7 / ESC 8 (save / restore the cursor) would put later output over the lines written meanwhile.
    expect(stream.text).not.toContain("\u001b7");
    expect(stream.text).not.toContain("\u001b8");
  });
});
