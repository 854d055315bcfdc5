import { unquoteC } from "./output.js";

/**
 * Finds the files a `git diff` patch fills with conflict markers: added hunk lines that are
 * `<<<<<<< …`, `>>>>>>> …`, `||||||| …` (diff3) or `=======` alone. A child stopped mid-rebase
 * or mid-merge leaves such files in its worktree, and its patch would carry them into the
 * target as if they were work.
 *
 * `=======` alone also underlines a Markdown or reST heading, so it never flags a file by itself:
 * git writes it only between an opening and a closing marker, and those flag the file.
 *
 * Fed in chunks as the patch comes off the disk; only lines starting with `+` or `diff --git `
 * are decoded, so a 50 MB patch costs one pass of byte searches. No I/O.
 */
export class ConflictMarkerScanner {
  private readonly flagged = new Set<string>();
  /** The new-side path of the current file section, from its `+++ ` line. */
  private path: string | null = null;
  private inHeader = false;
  private sawMarker = false;
  /** The start of the unfinished last line of the previous chunk, capped, and its full length. */
  private partial: Buffer[] = [];
  private partialBytes = 0;

  push(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      if (nl === -1) {
        this.keep(chunk.subarray(pos));
        return;
      }
      if (this.partialBytes > 0) {
        this.keep(chunk.subarray(pos, nl));
        this.finishPartial();
      } else this.line(chunk, pos, nl);
      pos = nl + 1;
    }
  }

  /** Paths whose added lines are conflict markers, sorted. */
  end(): string[] {
    if (this.partialBytes > 0) this.finishPartial();
    this.closeFile();
    return [...this.flagged].sort();
  }

  private keep(bytes: Buffer): void {
    const room = MAX_KEPT - Math.min(this.partialBytes, MAX_KEPT);
    if (room > 0) this.partial.push(Buffer.from(bytes.subarray(0, room)));
    this.partialBytes += bytes.length;
  }

  private finishPartial(): void {
    const kept = Buffer.concat(this.partial);
    const whole = this.partialBytes <= MAX_KEPT;
    this.partial = [];
    this.partialBytes = 0;
    // A line longer than the cap is neither a marker nor a header this scanner needs.
    if (whole) this.line(kept, 0, kept.length);
  }

  private line(buf: Buffer, start: number, end: number): void {
    const first = buf[start];
    if (first === PLUS && !this.inHeader) {
      this.addedLine(buf, start + 1, end);
      return;
    }
    if (first === D && buf.toString("latin1", start, start + DIFF.length) === DIFF) {
      this.closeFile();
      this.inHeader = true;
      return;
    }
    if (!this.inHeader) return;
    const text = buf.toString("utf8", start, end);
    if (text.startsWith("+++ ")) this.path = newSidePath(text.slice(4));
    else if (text.startsWith("@@") || text === "GIT binary patch" || text.startsWith("Binary files ")) {
      this.inHeader = false;
    }
  }

  private addedLine(buf: Buffer, start: number, rawEnd: number): void {
    // A CRLF file's lines end in \r in the patch too.
    const end = rawEnd > start && buf[rawEnd - 1] === CR ? rawEnd - 1 : rawEnd;
    if (markerKind(buf, start, end) === "marker") this.sawMarker = true;
  }

  private closeFile(): void {
    if (this.sawMarker && this.path !== null) this.flagged.add(this.path);
    this.path = null;
    this.sawMarker = false;
    this.inHeader = false;
  }
}

const NL = 0x0a;
const CR = 0x0d;
const PLUS = 0x2b;
const D = 0x64;
const DIFF = "diff --git ";
/** Longer than any header line worth reading (paths are at most a few KB even C-quoted). */
const MAX_KEPT = 64 * 1024;
/** Git's default marker size; a line is a marker when the run is followed by a space or nothing. */
const SIZE = 7;
const MARKER_CHARS = new Set([0x3c, 0x3e, 0x7c]);
const EQUALS = 0x3d;

/** What one added line is: an opening/closing/base marker, the `=======` separator, or text. */
export function markerKind(buf: Buffer, start: number, end: number): "marker" | "separator" | null {
  if (end - start < SIZE) return null;
  const c = buf[start]!;
  if (c !== EQUALS && !MARKER_CHARS.has(c)) return null;
  for (let i = start + 1; i < start + SIZE; i++) if (buf[i] !== c) return null;
  if (c === EQUALS) return end - start === SIZE ? "separator" : null;
  return end - start === SIZE || buf[start + SIZE] === 0x20 ? "marker" : null;
}

/** The path of a `+++ ` line: `b/<path>` (maybe C-quoted, maybe tab-terminated), or null for /dev/null. */
export function newSidePath(field: string): string | null {
  const name = unquoteC(field.replace(/\t$/, ""));
  if (name === "/dev/null") return null;
  return name.startsWith("b/") ? name.slice(2) : name;
}

/** The flagged paths of a whole patch held in memory (tests, small patches). */
export function conflictMarkerPaths(patch: Buffer | string): string[] {
  const s = new ConflictMarkerScanner();
  s.push(typeof patch === "string" ? Buffer.from(patch, "utf8") : patch);
  return s.end();
}
