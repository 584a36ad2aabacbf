// Where each line of a block of lines ends, for every line reader (lines.ts) and the dump scorer.
// A block of the readers' size has its newlines found in WebAssembly (its source
// wasm/line-ends.ts, its bytes line-ends-wasm.ts), 16 bytes at a time; a small block, or one whose
// newlines outnumber the module's room, by Buffer.indexOf from one newline to the next, which
// cost a call into Node's C++ per line (about 9 ms of the GRPO bench's 300,000 lines, `--cpu-prof`).
import { instantiateSized, WASM_OWN_BYTES } from "../core/wasm.js";
import { LINE_ENDS_WASM } from "./line-ends-wasm.js";

const NEWLINE = 0x0a;

/**
 * Bytes read at a time by the line readers (lines.ts, which exports it to them): blocks of whole
 * lines are cut from reads of this size, and it is the largest block the module reads.
 */
export const LINE_BLOCK_BYTES = 1 << 20;
/** The smallest: below it, copying the block into the module costs more than it saves. */
const LEAST_MODULE_BYTES = 1 << 14;
/** Newlines the module has room for, per byte of block: lines of 8 bytes on average (more go by indexOf). */
const NEWLINES_PER_BYTE = 1 / 8;

interface LineEndsExports {
  heapBase(): number;
  newlines(at: number, length: number, ends: number, room: number): number;
}

/** The module and its memory's views: the block at WASM_OWN_BYTES, the newlines after it. */
interface LineEndsModule {
  exports: LineEndsExports;
  block: Uint8Array;
  endsAt: number;
  ends: Int32Array;
}

/** The module of this thread, made at first use; null when it cannot be had (the indexOf path stays). */
let module: LineEndsModule | null | undefined;

function lineEndsModule(): LineEndsModule | null {
  if (module !== undefined) return module;
  const room = Math.ceil(LINE_BLOCK_BYTES * NEWLINES_PER_BYTE);
  try {
    const { exports, buffer } = instantiateSized<LineEndsExports>(LINE_ENDS_WASM, "line-ends", LINE_BLOCK_BYTES + 4 * room);
    const endsAt = WASM_OWN_BYTES + LINE_BLOCK_BYTES;
    module = { exports, block: new Uint8Array(buffer, WASM_OWN_BYTES, LINE_BLOCK_BYTES), endsAt, ends: new Int32Array(buffer, endsAt, room) };
  } catch {
    module = null;
  }
  return module;
}

/**
 * Where each line of a block ends: the offset of its newline, or the block's end for an unfinished
 * last line (an empty block is one blank line), the lines numbered as lines.ts's `splitBlock`
 * numbers them. One list, reused from block to block.
 */
export class LineEnds {
  private list = new Int32Array(1 << 14);

  /** The ends of `block`'s lines: a view of the list, valid until the next call. */
  of(block: Uint8Array): Int32Array {
    const newlines = block.length >= LEAST_MODULE_BYTES && block.length <= LINE_BLOCK_BYTES ? this.newlinesByModule(block) : -1;
    const count = newlines >= 0 ? newlines : this.newlinesByIndexOf(block);
    // After the last newline: an unfinished last line, or an empty block's one blank line.
    if (count > 0 && this.list[count - 1] === block.length - 1) return this.list.subarray(0, count);
    this.room(count + 1);
    this.list[count] = block.length;
    return this.list.subarray(0, count + 1);
  }

  /** The block's newlines into the list by the module: how many, or -1 when it cannot tell. */
  private newlinesByModule(block: Uint8Array): number {
    const wasm = lineEndsModule();
    if (wasm === null) return -1;
    wasm.block.set(block);
    const count = wasm.exports.newlines(WASM_OWN_BYTES, block.length, wasm.endsAt, wasm.ends.length);
    if (count < 0) return -1;
    this.room(count);
    this.list.set(wasm.ends.subarray(0, count));
    return count;
  }

  /** The block's newlines into the list, one indexOf after another: how many. */
  private newlinesByIndexOf(block: Uint8Array): number {
    const bytes = Buffer.from(block.buffer, block.byteOffset, block.length);
    let count = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) {
      this.room(count + 1);
      this.list[count++] = at;
    }
    return count;
  }

  /** Room in the list for `count` ends. */
  private room(count: number): void {
    if (count <= this.list.length) return;
    const grown = new Int32Array(Math.max(count, 2 * this.list.length));
    grown.set(this.list);
    this.list = grown;
  }
}
