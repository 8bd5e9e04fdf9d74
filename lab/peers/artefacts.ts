// Bytes of a built artefact, read in place rather than whole: one entry of a jar (a zip: the central
// directory from the end of the file, then that entry's bytes), the string constants of a class, one
// section of an ELF binary. Enough to read which SDK version a build holds (a shaded jar's
// META-INF/maven/<g>/<a>/pom.properties, the Kotlin SDK's LIB_VERSION, a Go binary's .go.buildinfo,
// a Rust binary's source paths in .rodata) without starting a JVM or reading megabytes.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { inflateRawSync } from "node:zlib";

/** `use` with a reader of byte ranges of `file` (short where the file ends) and its size; undefined
 *  when the file cannot be opened or a range cannot be read (a file that is not what it claims). */
function withRanges<T>(file: string, use: (read: (position: number, length: number) => Buffer, size: number) => T | undefined): T | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const read = (position: number, length: number) => {
      const bytes = Buffer.alloc(length);
      return bytes.subarray(0, readSync(fd, bytes, 0, length, position));
    };
    return use(read, fstatSync(fd).size);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const END = 0x06054b50;
const END64_LOCATOR = 0x07064b50;
const ENTRY = 0x02014b50;
// the end record (22 bytes) and the longest comment a zip may carry
const TAIL = 22 + 0xffff;

/** The bytes of entry `name` in `jar`; undefined when the jar or the entry is not there. */
export function jarEntry(jar: string, name: string): Buffer | undefined {
  return withRanges(jar, (read, size) => {
    const tail = read(Math.max(0, size - TAIL), Math.min(size, TAIL));
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0 || tail.readUInt32LE(end) !== END) return undefined;
    let entries = tail.readUInt16LE(end + 10);
    let dirSize = tail.readUInt32LE(end + 12);
    let dirOffset = tail.readUInt32LE(end + 16);
    // a jar of more than 65535 entries (a shaded one may be) keeps its counts in the zip64 record
    if (entries === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) {
      const locator = end - 20;
      if (locator < 0 || tail.readUInt32LE(locator) !== END64_LOCATOR) return undefined;
      const record = read(Number(tail.readBigUInt64LE(locator + 8)), 56);
      entries = Number(record.readBigUInt64LE(32));
      dirSize = Number(record.readBigUInt64LE(40));
      dirOffset = Number(record.readBigUInt64LE(48));
    }
    const dir = read(dirOffset, dirSize);
    const wanted = Buffer.from(name, "utf8");
    for (let at = 0, i = 0; i < entries && at + 46 <= dir.length && dir.readUInt32LE(at) === ENTRY; i++) {
      const nameLength = dir.readUInt16LE(at + 28);
      const next = at + 46 + nameLength + dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
      if (nameLength === wanted.length && wanted.compare(dir, at + 46, at + 46 + nameLength) === 0) {
        const local = dir.readUInt32LE(at + 42);
        const header = read(local, 30);
        const data = read(local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28), dir.readUInt32LE(at + 20));
        // method 8: deflate; 0: stored
        return dir.readUInt16LE(at + 10) === 8 ? inflateRawSync(data) : data;
      }
      at = next;
    }
    return undefined;
  });
}

/** The string constants of a class file (its constant pool's CONSTANT_String entries, JVMS 4.4). */
export function classStrings(bytes: Buffer): string[] {
  if (bytes.length < 10 || bytes.readUInt32BE(0) !== 0xcafebabe) return [];
  const utf8 = new Map<number, string>();
  const strings: number[] = [];
  const count = bytes.readUInt16BE(8);
  // each tag's size after the tag byte; 5 and 6 (long, double) take two slots of the pool
  const size: Record<number, number> = { 3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2 };
  for (let at = 10, i = 1; i < count && at < bytes.length; i++) {
    const tag = bytes[at]!;
    if (tag === 1) {
      const length = bytes.readUInt16BE(at + 1);
      utf8.set(i, bytes.toString("utf8", at + 3, at + 3 + length));
      at += 3 + length;
      continue;
    }
    if (size[tag] === undefined) return [];
    if (tag === 8) strings.push(bytes.readUInt16BE(at + 1));
    at += 1 + size[tag];
    if (tag === 5 || tag === 6) i++;
  }
  return strings.map((index) => utf8.get(index) ?? "");
}

/** The bytes of section `name` of `binary` (the whole file if it has no such section); undefined: no file.
 *  A binary that is not a 64-bit little-endian ELF is read whole. */
export function binarySection(binary: string, name: string): Buffer | undefined {
  return withRanges(binary, (read, size) => {
    const header = read(0, Math.min(size, 64));
    // \x7fELF, class 2 (64-bit), data 1 (little-endian)
    if (header.length < 64 || header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) return read(0, size);
    const sectionsAt = Number(header.readBigUInt64LE(0x28));
    const entry = header.readUInt16LE(0x3a);
    const count = header.readUInt16LE(0x3c);
    const sections = read(sectionsAt, entry * count);
    const at = (i: number) => ({ name: sections.readUInt32LE(i * entry), offset: Number(sections.readBigUInt64LE(i * entry + 0x18)), size: Number(sections.readBigUInt64LE(i * entry + 0x20)) });
    const names = at(header.readUInt16LE(0x3e));
    const table = read(names.offset, names.size);
    for (let i = 0; i < count; i++) {
      const section = at(i);
      if (table.toString("latin1", section.name, table.indexOf(0, section.name)) === name) return read(section.offset, section.size);
    }
    return read(0, size);
  });
}
