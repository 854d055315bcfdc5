import { type ParseState, parseLine } from "./patch-paths.js";

/**
 * Reads a patch or a format-patch mbox in chunks as they come off the disk, decoding only the lines
 * that matter: `diff --git` header blocks (the paths) and git's `From <id>` separators (the
 * commits). Hunk and binary data are skipped with byte searches, so a 50 MB patch costs one pass
 * of `indexOf`, not a million strings, and memory stays at one chunk.
 *
 * A header block runs from its `diff --git` line to the first hunk (`@@`), binary section or the
 * next header; hunk lines begin with ' ', '+', '-' or '\' and base85 lines hold no spaces, so a
 * line beginning `diff --git ` is always a header. Paths come out as patch-paths.ts reads them.
 */
export class PatchScanner {
  readonly paths = new Set<string>();
  readonly commits: string[] = [];
  /** A plain diff has no `From` separators: searching only for headers halves the byte scan. */
  private readonly needles: readonly Buffer[];
  private readonly header: ParseState = { hunk: null, binary: false };
  /** The unfinished line at the end of the last chunk, kept only while it may matter. */
  private partial: Buffer[] = [];
  private atLineStart = true;
  private inHeader = false;

  constructor(kind: "mbox" | "diff" = "mbox") {
    this.needles = kind === "mbox" ? NEEDLES : NEEDLES.slice(0, 1);
  }

  push(chunk: Buffer): void {
    let pos = 0;
    if (this.partial.length > 0) {
      const nl = chunk.indexOf(NL);
      if (nl === -1) {
        this.keepOrDrop(chunk);
        return;
      }
      this.line(Buffer.concat([...this.partial, chunk.subarray(0, nl)]).toString("utf8"));
      this.partial = [];
      pos = nl + 1;
      this.atLineStart = true;
    }
    this.scan(chunk, pos);
  }

  /** The last line, when the input does not end with a newline. */
  end(): { paths: Set<string>; commits: string[] } {
    if (this.partial.length > 0) this.line(Buffer.concat(this.partial).toString("utf8"));
    this.partial = [];
    this.paths.delete("");
    return { paths: this.paths, commits: this.commits };
  }

  private scan(buf: Buffer, start: number): void {
    let pos = start;
    const next = new NeedleSearch(buf, this.needles);
    while (pos < buf.length) {
      if (this.inHeader || (this.atLineStart && mayMatter(buf, pos, this.needles))) {
        const nl = buf.indexOf(NL, pos);
        if (nl === -1) {
          this.partial = [Buffer.from(buf.subarray(pos))];
          return;
        }
        this.line(buf.toString("utf8", pos, nl));
        pos = nl + 1;
        this.atLineStart = true;
        continue;
      }
      const at = next.after(pos);
      if (at !== -1) {
        pos = at;
        this.atLineStart = true;
        continue;
      }
      // No needle ahead in this chunk: only the last, unfinished line can still turn into one.
      const lastNl = buf.lastIndexOf(NL);
      if (lastNl < pos) {
        this.atLineStart = false;
        return;
      }
      const tail = lastNl + 1;
      this.atLineStart = true;
      if (tail < buf.length) {
        if (mayMatter(buf, tail, this.needles)) this.partial = [Buffer.from(buf.subarray(tail))];
        else this.atLineStart = false;
      }
      return;
    }
  }

  /** A whole chunk without a newline extends the kept line: keep it only while it may matter. */
  private keepOrDrop(chunk: Buffer): void {
    if (this.inHeader) {
      this.partial.push(Buffer.from(chunk));
      return;
    }
    const head = Buffer.concat([...this.partial, chunk.subarray(0, LONGEST)]);
    if (mayMatter(head, 0, this.needles)) this.partial.push(Buffer.from(chunk));
    else {
      this.partial = [];
      this.atLineStart = false;
    }
  }

  private line(text: string): void {
    const from = this.needles.length > 1 ? MBOX_FROM.exec(text) : null;
    if (from) {
      this.commits.push(from[1]!);
      this.inHeader = false;
      return;
    }
    if (text.startsWith("diff --git ")) this.inHeader = true;
    else if (!this.inHeader) return;
    else if (text.startsWith("@@") || text === "GIT binary patch" || text.startsWith("Binary files ")) {
      this.inHeader = false;
      return;
    }
    parseLine(text, this.header, this.paths);
  }
}

const NL = 0x0a;
const NEEDLES = ["diff --git ", "From "].map((n) => Buffer.from(n, "latin1"));
const LONGEST = Math.max(...NEEDLES.map((n) => n.length));
const MBOX_FROM = /^From ([0-9a-f]{40}|[0-9a-f]{64}) Mon Sep 17 00:00:00 2001$/;

/** Whether the line starting at `at` begins with a needle, or is too short yet to tell. */
function mayMatter(buf: Buffer, at: number, needles: readonly Buffer[]): boolean {
  const have = buf.length - at;
  return needles.some(
    (n) => buf.compare(n, 0, Math.min(n.length, have), at, at + Math.min(n.length, have)) === 0,
  );
}

/** The next line start in one buffer whose line begins with a needle, each needle searched once per stretch. */
class NeedleSearch {
  private readonly found: number[];
  private readonly patterns: Buffer[];

  constructor(
    private readonly buf: Buffer,
    needles: readonly Buffer[],
  ) {
    this.found = needles.map(() => -2);
    this.patterns = needles.map((n) => Buffer.concat([Buffer.from([NL]), n]));
  }

  after(pos: number): number {
    let best = -1;
    this.patterns.forEach((p, i) => {
      const known = this.found[i]!;
      if (known === -2 || (known !== -1 && known < pos)) this.found[i] = this.buf.indexOf(p, pos);
      const at = this.found[i]!;
      if (at !== -1 && (best === -1 || at + 1 < best)) best = at + 1;
    });
    return best;
  }
}
