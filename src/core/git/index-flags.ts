/**
 * Reading the flags of a Git index file (`.git/index`, versions 2–4) without a git process: which
 * entries carry assume-unchanged or skip-worktree, the two flags that hide a change from
 * `git status`. Anything this reader is not sure of is "unknown", and the caller asks
 * `git ls-files -v` instead, so a misread can only cost a process, never hide a flag.
 */
/** One `git ls-files -v` record: the tag letter (`H`, `S`, lowercase for assume-unchanged) and path. */
export interface IndexTag {
  path: string;
  tag: string;
}

/** The flagged entries, tagged as `ls-files -v` would tag them; or why only git can tell. */
export type IndexFlags = { tags: IndexTag[] } | { unknown: string };

const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
const STAGE = 0x3000;
const NAME_LENGTH = 0x0fff;
const SKIP_WORKTREE = 0x4000;
/** ctime, mtime (seconds and nanoseconds each), dev, ino, mode, uid, gid, size: 4 bytes each. */
const STAT_BYTES = 40;

/**
 * The flagged entries of an index. The object name is 20 bytes (SHA-1) or 32 (SHA-256); the file
 * does not say which, so SHA-1 is tried first and a layout that does not check out tries the other.
 */
export function indexFlags(buf: Buffer): IndexFlags {
  if (buf.length === 0) return { tags: [] };
  const sha1 = readEntries(buf, 20);
  if ("tags" in sha1) return sha1;
  const sha256 = readEntries(buf, 32);
  return "tags" in sha256 ? sha256 : sha1;
}

function readEntries(buf: Buffer, hashBytes: number): IndexFlags {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return { unknown: "no index signature" };
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return { unknown: `index version ${version}` };
  const count = buf.readUInt32BE(8);
  const end = buf.length - hashBytes;
  const tags: IndexTag[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    at += STAT_BYTES + hashBytes;
    if (at + 2 > end) return { unknown: "entries run past the end" };
    const flags = u16(buf, at);
    at += 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3 || at + 2 > end) return { unknown: "extended flags where none can be" };
      extended = u16(buf, at);
      at += 2;
    }
    const flagged = (flags & ASSUME_VALID) !== 0 || (extended & SKIP_WORKTREE) !== 0;
    let path: Buffer | null = null;
    if (version === 4) {
      const name = compressedName(buf, at, end, previous);
      if (!name || !lengthFits(flags, name.path.length))
        return { unknown: "an entry's name does not check out" };
      [path, previous, at] = [name.path, name.path, name.next];
    } else {
      const nul = plainNameEnd(buf, start, at, end, flags);
      if (nul === -1) return { unknown: "an entry's name does not check out" };
      // Most entries are not flagged: their names are never copied out of the buffer.
      if (flagged) path = buf.subarray(at, nul);
      at = start + Math.ceil((nul + 1 - start) / 8) * 8;
    }
    if (flagged && path) tags.push({ tag: tagOf(flags, extended), path: path.toString("utf8") });
  }
  return requiredExtension(buf, at, end) ?? { tags };
}

/** A plain byte read: a little cheaper than Buffer.readUInt16BE while the loop is still interpreted. */
function u16(buf: Buffer, at: number): number {
  return (buf[at]! << 8) | buf[at + 1]!;
}

/** The 12-bit length field holds the name's length, or 0xFFF for a name that long or longer. */
function lengthFits(flags: number, length: number): boolean {
  const field = flags & NAME_LENGTH;
  return field === NAME_LENGTH ? length >= NAME_LENGTH : field === length;
}

/** `ls-files -v`: `M` for a conflict stage, else `S` or `H`; lowercase when assume-unchanged. */
function tagOf(flags: number, extended: number): string {
  const tag = flags & STAGE ? "M" : extended & SKIP_WORKTREE ? "S" : "H";
  return flags & ASSUME_VALID ? tag.toLowerCase() : tag;
}

/**
 * Versions 2 and 3: where the NUL after the name is (-1 when the layout does not check out). The
 * name is padded with NULs to a multiple of 8 bytes from the entry's start.
 */
function plainNameEnd(buf: Buffer, start: number, at: number, end: number, flags: number): number {
  const field = flags & NAME_LENGTH;
  const nul = field === NAME_LENGTH ? buf.indexOf(0, at + NAME_LENGTH) : at + field;
  const next = start + Math.ceil((nul + 1 - start) / 8) * 8;
  if (nul < at || next > end) return -1;
  for (let p = nul; p < next; p++) if (buf[p] !== 0) return -1;
  return nul;
}

/** Version 4: how many bytes to drop from the previous name (a varint), then the rest, NUL-terminated. */
function compressedName(buf: Buffer, at: number, end: number, previous: Buffer) {
  let drop = 0;
  let byte: number;
  do {
    if (at >= end) return null;
    byte = buf[at++]!;
    drop = (drop << 7) | (byte & 0x7f);
    // Git's varint adds one per continuation byte, so each length has one spelling.
    if (byte & 0x80) drop++;
  } while (byte & 0x80);
  if (drop > previous.length) return null;
  const nul = buf.indexOf(0, at);
  if (nul === -1 || nul >= end) return null;
  const path = Buffer.concat([previous.subarray(0, previous.length - drop), buf.subarray(at, nul)]);
  return { path, next: nul + 1 };
}

/**
 * Extensions follow the entries. One whose signature starts with a lowercase letter must be
 * understood to read the index right (`link`: entries live in a shared index; `sdir`: a sparse
 * directory stands for the files below it), so it leaves the answer to git.
 */
function requiredExtension(buf: Buffer, at: number, end: number): IndexFlags | null {
  while (at + 8 <= end) {
    const first = buf[at]!;
    if (first >= 0x61 && first <= 0x7a)
      return { unknown: `index extension ${buf.toString("latin1", at, at + 4)}` };
    at += 8 + buf.readUInt32BE(at + 4);
  }
  // Landing exactly on the checksum is what tells a SHA-1 index from a SHA-256 one read wrongly.
  return at === end ? null : { unknown: "the extensions do not end at the checksum" };
}
