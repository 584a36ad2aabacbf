// Writes zip archives (an inspect_ai `.eval` log is one) for the tests and the fuzz bench: local
// headers, the central directory and its end record, each member stored, deflated (node's zlib)
// or zstd-compressed (method 93, what inspect_ai writes today, by the zstd program). CRC-32 from
// node's zlib.
import { execFileSync } from "node:child_process";
import { crc32, deflateRawSync } from "node:zlib";

/** @typedef {0 | 8 | 93} ZipMethod */

/** @param {Buffer} data @param {ZipMethod} method @param {string[]} zstdFlags */
function compress(data, method, zstdFlags) {
  if (method === 8) return deflateRawSync(data);
  if (method === 93) return execFileSync("zstd", ["-q", "-c", ...zstdFlags], { input: data });
  return data;
}

/**
 * A zip archive's bytes: the members in order, then the central directory and its end record.
 * @param {{ name: string; text: string }[]} members
 * @param {ZipMethod} method
 * @param {string[]} [zstdFlags] further flags of the zstd program (e.g. a window size)
 * @returns {Buffer}
 */
export function zipBytes(members, method, zstdFlags = []) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, text } of members) {
    const data = Buffer.from(text, "utf8");
    const packed = compress(data, method, zstdFlags);
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method === 93 ? 63 : 20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4);
    central.writeUInt16LE(method === 93 ? 63 : 20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
