// One section of a built binary, read without reading the binary: a Go driver is megabytes, and its
// module list is a few hundred bytes in .go.buildinfo; a Rust driver's source paths are in .rodata.
// A binary that is not a 64-bit little-endian ELF, or lacks the section, is read whole.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** The bytes of section `name` of `binary` (the whole file if it has no such section); undefined: no file. */
export function binarySection(binary: string, name: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(binary, "r");
  } catch {
    return undefined;
  }
  try {
    const read = (position: number, length: number) => {
      const bytes = Buffer.alloc(length);
      readSync(fd, bytes, 0, length, position);
      return bytes;
    };
    const whole = () => read(0, fstatSync(fd).size);
    const header = read(0, 64);
    // \x7fELF, class 2 (64-bit), data 1 (little-endian)
    if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) return whole();
    const sectionsAt = Number(header.readBigUInt64LE(0x28));
    const size = header.readUInt16LE(0x3a);
    const count = header.readUInt16LE(0x3c);
    const sections = read(sectionsAt, size * count);
    const at = (i: number) => ({ name: sections.readUInt32LE(i * size), offset: Number(sections.readBigUInt64LE(i * size + 0x18)), size: Number(sections.readBigUInt64LE(i * size + 0x20)) });
    const names = at(header.readUInt16LE(0x3e));
    const table = read(names.offset, names.size);
    for (let i = 0; i < count; i++) {
      const section = at(i);
      const end = table.indexOf(0, section.name);
      if (table.toString("latin1", section.name, end) === name) return read(section.offset, section.size);
    }
    return whole();
  } finally {
    closeSync(fd);
  }
}
