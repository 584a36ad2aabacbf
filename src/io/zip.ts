// A minimal reader of zip archives (what an inspect_ai `.eval` log is): the central directory,
// ZIP64 included, and each member read by its offset, so one member is in memory at a time.
// Members may be stored, deflated (node's zlib) or zstd-compressed (method 93, what inspect_ai
// writes today; fzstd, pure JS). The general zip libraries on npm read deflate only.
import { open } from "node:fs/promises";
import { inflateRawSync } from "node:zlib";
import { decompress as zstdDecompress } from "fzstd";

export const ZIP_MAGIC = "PK\u0003\u0004";

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  encrypted: boolean;
}

/** A damaged or unsupported archive; the caller words it for its file. */
export class ZipError extends Error {}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

function u64(buffer: Buffer, at: number): number {
  const value = buffer.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError("a ZIP64 size or offset beyond 2^53");
  return Number(value);
}

export class ZipReader {
  private constructor(
    private readonly handle: Awaited<ReturnType<typeof open>>,
    readonly entries: ZipEntry[],
  ) {}

  static async open(path: string): Promise<ZipReader> {
    const handle = await open(path, "r");
    try {
      return new ZipReader(handle, await readDirectory(handle));
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** A member's bytes, decompressed. */
  async read(entry: ZipEntry): Promise<Buffer> {
    if (entry.encrypted) throw new ZipError(`${entry.name} is encrypted`);
    const header = Buffer.alloc(30);
    await this.handle.read(header, 0, 30, entry.localHeaderOffset);
    if (header.readUInt32LE(0) !== LOCAL) throw new ZipError(`${entry.name}: no local header where the directory points`);
    const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const data = Buffer.alloc(entry.compressedSize);
    const { bytesRead } = await this.handle.read(data, 0, data.length, start);
    if (bytesRead !== data.length) throw new ZipError(`${entry.name} is cut short`);
    if (entry.method === 0) return data;
    if (entry.method === 8) return inflateRawSync(data);
    if (entry.method === 93) return Buffer.from(zstdDecompress(data));
    throw new ZipError(`${entry.name} uses compression method ${entry.method} (stored, deflate and zstd are read)`);
  }
}

async function readDirectory(handle: Awaited<ReturnType<typeof open>>): Promise<ZipEntry[]> {
  const { size } = await handle.stat();
  const tailLength = Math.min(size, 22 + MAX_COMMENT + 20);
  const tail = Buffer.alloc(tailLength);
  await handle.read(tail, 0, tailLength, size - tailLength);
  let at = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipError("no end-of-central-directory record (not a whole zip archive)");
  let count = tail.readUInt16LE(at + 10);
  let directorySize = tail.readUInt32LE(at + 12);
  let directoryOffset = tail.readUInt32LE(at + 16);
  if (at >= 20 && tail.readUInt32LE(at - 20) === ZIP64_LOCATOR) {
    const record = Buffer.alloc(56);
    await handle.read(record, 0, 56, u64(tail, at - 20 + 8));
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipError("the ZIP64 end record is not where its locator points");
    count = u64(record, 32);
    directorySize = u64(record, 40);
    directoryOffset = u64(record, 48);
  }
  if (directoryOffset + directorySize > size) throw new ZipError("the central directory lies beyond the end of the file");
  const directory = Buffer.alloc(directorySize);
  await handle.read(directory, 0, directorySize, directoryOffset);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL) throw new ZipError("the central directory is damaged");
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    let size32 = directory.readUInt32LE(p + 24);
    let compressed32 = directory.readUInt32LE(p + 20);
    let offset32 = directory.readUInt32LE(p + 42);
    const name = directory.toString("utf8", p + 46, p + 46 + nameLength);
    // ZIP64 extra field: the 8-byte values of the fields that are 0xFFFFFFFF, in this order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = directory.readUInt16LE(e);
      const length = directory.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size32 === 0xffffffff) {
          size32 = u64(directory, q);
          q += 8;
        }
        if (compressed32 === 0xffffffff) {
          compressed32 = u64(directory, q);
          q += 8;
        }
        if (offset32 === 0xffffffff) offset32 = u64(directory, q);
      }
      e += 4 + length;
    }
    entries.push({
      name,
      method: directory.readUInt16LE(p + 10),
      compressedSize: compressed32,
      size: size32,
      localHeaderOffset: offset32,
      encrypted: (directory.readUInt16LE(p + 8) & 1) === 1,
    });
    p = extraEnd + commentLength;
  }
  return entries;
}
