// Gathers small writes (one JSONL line each) into blocks before handing them to a stream: one
// awaited write per line costs more than producing the line.
import type { AtomicLineWriter } from "./atomic-write.js";

export class BufferedLines {
  private buffer = "";

  constructor(
    private readonly writer: AtomicLineWriter,
    private readonly blockChars = 1 << 16,
  ) {}

  async push(text: string): Promise<void> {
    this.buffer += text;
    if (this.buffer.length >= this.blockChars) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === "") return;
    const block = this.buffer;
    this.buffer = "";
    await this.writer.write(block);
  }
}
