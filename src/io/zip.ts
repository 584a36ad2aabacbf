// A minimal reader of zip archives (what an inspect_ai `.eval` log is): the central directory,
// ZIP64 included, and each member read by its offset, so one member is in memory at a time.
// Members may be stored, deflated (node's zlib) or zstd-compressed (method 93, what inspect_ai
// writes today; fzstd, pure JS). The general zip libraries on npm read deflate only.
//
// The archive is untrusted (src/io/input-contract.ts): every size and offset the directory
// declares is checked against the file's real size before anything is allocated for it; members
// may not overlap (one compressed member named by many entries would be decompressed many times);
// a member decompresses to exactly its declared size, at most MAX_DECODED_RECORD_BYTES, and all
// members together to at most MAX_DECODED_FILE_BYTES; its CRC-32 is checked.
import { open } from "node:fs/promises";
import { crc32, inflateRawSync } from "node:zlib";
import { decompress as zstdDecompress } from "fzstd";
import { MAX_DECODED_FILE_BYTES, MAX_DECODED_RECORD_BYTES } from "./input-contract.js";

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
  encrypted: boolean;
  /** The CRC-32 the directory records for the decompressed bytes. */
  crc32: number;
  /** Where the member's bytes must end: the next member's local header, or the central directory. */
  end: number;
}

/** A damaged or unsupported archive; the caller words it for its file. */
export class ZipError extends Error {}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
const LOCAL_HEADER_BYTES = 30;
const CENTRAL_HEADER_BYTES = 46;

function u64(buffer: Buffer, at: number): number {
  if (at + 8 > buffer.length) throw new ZipError("a ZIP64 field is cut short");
  const value = buffer.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError("a ZIP64 size or offset beyond 2^53");
  return Number(value);
}

type Handle = Awaited<ReturnType<typeof open>>;

/** Reads exactly `length` bytes at `position`, or says the archive is cut short. */
async function readExactly(handle: Handle, length: number, position: number, what: string): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipError(`${what} is cut short`);
  return buffer;
}

export class ZipReader {
  /** Bytes the members read so far decompressed to (MAX_DECODED_FILE_BYTES in all). */
  private decoded = 0;

  private constructor(
    private readonly handle: Handle,
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

  /** A member's bytes, decompressed and checked against its size and CRC-32. */
  async read(entry: ZipEntry): Promise<Buffer> {
    if (entry.encrypted) throw new ZipError(`${entry.name} is encrypted`);
    if (entry.method !== 0 && entry.method !== 8 && entry.method !== 93) {
      throw new ZipError(`${entry.name} uses compression method ${entry.method} (stored, deflate and zstd are read)`);
    }
    if (entry.size > MAX_DECODED_RECORD_BYTES) {
      throw new ZipError(`${entry.name} declares ${entry.size} bytes decompressed, over the ${MAX_DECODED_RECORD_BYTES}-byte bound of one record`);
    }
    if (this.decoded + entry.size > MAX_DECODED_FILE_BYTES) {
      throw new ZipError(`${entry.name}: the archive's members decompress to more than ${MAX_DECODED_FILE_BYTES} bytes in all`);
    }
    this.decoded += entry.size;
    const header = await readExactly(this.handle, LOCAL_HEADER_BYTES, entry.localHeaderOffset, `${entry.name}'s local header`);
    if (header.readUInt32LE(0) !== LOCAL) throw new ZipError(`${entry.name}: no local header where the directory points`);
    const start = entry.localHeaderOffset + LOCAL_HEADER_BYTES + header.readUInt16LE(26) + header.readUInt16LE(28);
    if (start + entry.compressedSize > entry.end) throw new ZipError(`${entry.name}: its bytes run into the next member or the directory`);
    const data = await readExactly(this.handle, entry.compressedSize, start, entry.name);
    const bytes = decode(entry, data);
    if (bytes.length !== entry.size)
      throw new ZipError(`${entry.name} decompresses to ${bytes.length} bytes, not the ${entry.size} its directory entry declares`);
    if (crc32(bytes) !== entry.crc32) throw new ZipError(`${entry.name} fails its CRC-32 check (the member was changed or damaged)`);
    return bytes;
  }
}

/** A member's bytes, decompressed into at most its declared size (one byte more shows it lied). */
function decode(entry: ZipEntry, data: Buffer): Buffer {
  if (entry.method === 0) return data;
  try {
    if (entry.method === 8) return inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size + 1) });
    // Given the output buffer, fzstd decodes into it rather than allocating the window the frame
    // header asks for (up to 2 GiB); bytes past its end are dropped, so the size check is not
    // enough here and the CRC-32 check catches a member that decodes to more.
    const out = new Uint8Array(entry.size);
    const decoded = zstdDecompress(data, out);
    return Buffer.from(decoded.buffer, decoded.byteOffset, Math.min(decoded.length, entry.size));
  } catch (err) {
    throw new ZipError(`${entry.name} cannot be decompressed (${(err as Error).message})`);
  }
}

async function readDirectory(handle: Handle): Promise<ZipEntry[]> {
  const { size } = await handle.stat();
  const tailLength = Math.min(size, 22 + MAX_COMMENT + 20);
  const tail = await readExactly(handle, tailLength, size - tailLength, "the archive");
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
    const recordAt = u64(tail, at - 20 + 8);
    if (recordAt + 56 > size) throw new ZipError("the ZIP64 end record lies beyond the end of the file");
    const record = await readExactly(handle, 56, recordAt, "the ZIP64 end record");
    if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipError("the ZIP64 end record is not where its locator points");
    count = u64(record, 32);
    directorySize = u64(record, 40);
    directoryOffset = u64(record, 48);
  }
  if (directoryOffset + directorySize > size) throw new ZipError("the central directory lies beyond the end of the file");
  if (count * CENTRAL_HEADER_BYTES > directorySize)
    throw new ZipError(`the directory declares ${count} members, more than its ${directorySize} bytes can hold`);
  const directory = await readExactly(handle, directorySize, directoryOffset, "the central directory");
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + CENTRAL_HEADER_BYTES > directory.length || directory.readUInt32LE(p) !== CENTRAL) throw new ZipError("the central directory is damaged");
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    if (p + CENTRAL_HEADER_BYTES + nameLength + extraLength + commentLength > directory.length) throw new ZipError("the central directory is damaged");
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
        const fieldEnd = Math.min(e + 4 + length, extraEnd);
        const next = (): number => {
          if (q + 8 > fieldEnd) throw new ZipError(`${name}: its ZIP64 extra field is cut short`);
          const value = u64(directory, q);
          q += 8;
          return value;
        };
        if (size32 === 0xffffffff) size32 = next();
        if (compressed32 === 0xffffffff) compressed32 = next();
        if (offset32 === 0xffffffff) offset32 = next();
      }
      e += 4 + length;
    }
    // Checked here, before a byte is allocated for the member.
    if (offset32 + LOCAL_HEADER_BYTES + compressed32 > directoryOffset) {
      throw new ZipError(
        `${name}: its ${compressed32} compressed bytes at offset ${offset32} lie beyond the members' part of the file (${directoryOffset} bytes)`,
      );
    }
    entries.push({
      name,
      method: directory.readUInt16LE(p + 10),
      compressedSize: compressed32,
      size: size32,
      localHeaderOffset: offset32,
      encrypted: (directory.readUInt16LE(p + 8) & 1) === 1,
      crc32: directory.readUInt32LE(p + 16),
      end: directoryOffset,
    });
    p = extraEnd + commentLength;
  }
  boundMembers(entries);
  return entries;
}

/**
 * Each member's bytes end before the next member's local header: two entries naming one local
 * header, or one whose bytes run into another's, make the archive damaged.
 */
function boundMembers(entries: ZipEntry[]): void {
  const byOffset = [...entries].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  for (let i = 0; i + 1 < byOffset.length; i++) {
    const here = byOffset[i]!;
    const next = byOffset[i + 1]!;
    if (next.localHeaderOffset < here.localHeaderOffset + LOCAL_HEADER_BYTES + here.compressedSize) {
      throw new ZipError(`members overlap: ${next.name} starts inside ${here.name} (offset ${next.localHeaderOffset})`);
    }
    here.end = next.localHeaderOffset;
  }
}
