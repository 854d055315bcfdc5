/**
 * TOML read just deep enough to say where each key is set (docs/decisions/0046): table headers,
 * dotted and quoted keys (decoded), and where every value ends — the four kinds of string, arrays
 * and inline tables across lines, comments. Values other than booleans are skipped, not decoded.
 * Pure. Null for text that is not TOML: Codex then refuses to start and names the file, which
 * nobody misses, so nothing in it needs healing.
 */

export interface TomlPair {
  /** The full key: the table's path, then the key's dotted parts. */
  path: string[];
  /** The value when it is a boolean, else null. */
  bool: boolean | null;
  /** Offsets of the `key = value` text. */
  start: number;
  end: number;
  /** A member of an inline table (`t = { key = value }`), not a line of its own. */
  inline: boolean;
}

class NotToml extends Error {}

const BARE = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};
const HEX_DIGITS: Record<string, number> = { u: 4, U: 8, x: 2 };
/** Where a bare value (number, boolean, date) ends. */
const VALUE_END = new Set([" ", "\t", "\n", "\r", ",", "]", "}", "#"]);

export function scanToml(text: string): TomlPair[] | null {
  try {
    return new Scanner(text).document();
  } catch (err) {
    if (err instanceof NotToml) return null;
    throw err;
  }
}

class Scanner {
  private at = 0;
  private readonly pairs: TomlPair[] = [];

  constructor(private readonly text: string) {
    if (text.startsWith("\uFEFF")) this.at = 1;
  }

  document(): TomlPair[] {
    // Keys under `[[array]]` headers belong to one element each: no plain key path names them.
    let table: string[] | null = [];
    while (this.at < this.text.length) {
      this.spaces();
      if (this.lineEnds()) {
        this.endLine();
        continue;
      }
      if (this.peek() === "[") {
        const many = this.text.startsWith("[[", this.at);
        this.at += many ? 2 : 1;
        this.spaces();
        const key = this.key();
        this.expect(many ? "]]" : "]");
        table = many ? null : key;
      } else {
        const start = this.at;
        const key = this.key();
        this.expect("=");
        this.spaces();
        const path = table && [...table, ...key];
        const bool = this.value(path);
        if (path) this.pairs.push({ path, bool, start, end: this.at, inline: false });
      }
      this.spaces();
      this.endLine();
    }
    return this.pairs;
  }

  private peek(): string | undefined {
    return this.text[this.at];
  }

  private fail(): never {
    throw new NotToml();
  }

  private expect(token: string): void {
    if (!this.text.startsWith(token, this.at)) this.fail();
    this.at += token.length;
  }

  private spaces(): void {
    while (this.peek() === " " || this.peek() === "\t") this.at++;
  }

  /** At a comment, a line break or the end. */
  private lineEnds(): boolean {
    const c = this.peek();
    return c === undefined || c === "#" || c === "\n" || this.text.startsWith("\r\n", this.at);
  }

  /** Past an optional comment and one line break (or at the end). */
  private endLine(): void {
    if (this.peek() === "#") while (this.at < this.text.length && this.peek() !== "\n") this.at++;
    if (this.peek() === undefined) return;
    if (this.text.startsWith("\r\n", this.at)) this.at += 2;
    else if (this.peek() === "\n") this.at++;
    else this.fail();
  }

  /** Inside arrays and inline tables: spaces, comments and line breaks. */
  private blanks(): void {
    for (;;) {
      this.spaces();
      if (this.peek() === "#" || this.peek() === "\n" || this.text.startsWith("\r\n", this.at))
        this.endLine();
      else return;
    }
  }

  /** A dotted key, decoded part by part; the spaces after it are skipped. */
  private key(): string[] {
    const parts = [this.simpleKey()];
    for (;;) {
      this.spaces();
      if (this.peek() !== ".") return parts;
      this.at++;
      this.spaces();
      parts.push(this.simpleKey());
    }
  }

  private simpleKey(): string {
    if (this.peek() === '"') return this.basicString();
    if (this.peek() === "'") return this.literalString();
    const start = this.at;
    while (this.at < this.text.length && BARE.test(this.peek()!)) this.at++;
    if (this.at === start) this.fail();
    return this.text.slice(start, this.at);
  }

  private basicString(): string {
    this.at++;
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === "\n") this.fail();
      this.at++;
      if (c === '"') return out;
      out += c === "\\" ? this.escape() : c;
    }
  }

  private escape(): string {
    const c = this.peek() ?? this.fail();
    this.at++;
    if (ESCAPES[c] !== undefined) return ESCAPES[c];
    const digits = HEX_DIGITS[c] ?? this.fail();
    const hex = this.text.slice(this.at, this.at + digits);
    if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex)) this.fail();
    this.at += digits;
    const code = Number.parseInt(hex, 16);
    if (code > 0x10ffff) this.fail();
    return String.fromCodePoint(code);
  }

  private literalString(): string {
    const end = this.text.indexOf("'", this.at + 1);
    const body = end < 0 ? this.fail() : this.text.slice(this.at + 1, end);
    if (body.includes("\n")) this.fail();
    this.at = end + 1;
    return body;
  }

  /** A multi-line string from its opening quotes; up to two more quotes may end its content. */
  private multiLine(quote: string): void {
    const fence = quote.repeat(3);
    this.at += 3;
    for (;;) {
      if (this.at >= this.text.length) this.fail();
      if (quote === '"' && this.peek() === "\\") this.at += 2;
      else if (this.text.startsWith(fence, this.at)) break;
      else this.at++;
    }
    this.at += 3;
    for (let extra = 0; extra < 2 && this.peek() === quote; extra++) this.at++;
  }

  /** Skips one value; returns it when it is a boolean. Pairs inside are recorded under `path`. */
  private value(path: string[] | null): boolean | null {
    const c = this.peek();
    if (this.text.startsWith('"""', this.at) || this.text.startsWith("'''", this.at)) this.multiLine(c!);
    else if (c === '"') this.basicString();
    else if (c === "'") this.literalString();
    else if (c === "[") this.array();
    else if (c === "{") this.inlineTable(path);
    else return this.bare();
    return null;
  }

  private array(): void {
    this.at++;
    for (;;) {
      this.blanks();
      if (this.peek() === "]") break;
      this.value(null);
      this.blanks();
      if (this.peek() === ",") this.at++;
      else if (this.peek() !== "]") this.fail();
    }
    this.at++;
  }

  /** Newlines and a trailing comma are taken too (TOML 1.1), which only makes more files readable. */
  private inlineTable(path: string[] | null): void {
    this.at++;
    for (;;) {
      this.blanks();
      if (this.peek() === "}") break;
      const start = this.at;
      const key = this.key();
      this.expect("=");
      this.spaces();
      const inner = path && [...path, ...key];
      const bool = this.value(inner);
      if (inner) this.pairs.push({ path: inner, bool, start, end: this.at, inline: true });
      this.blanks();
      if (this.peek() === ",") this.at++;
      else if (this.peek() !== "}") this.fail();
    }
    this.at++;
  }

  /** A number, boolean or date-time; a date and a time may be apart by one space. */
  private bare(): boolean | null {
    const start = this.at;
    for (;;) {
      while (this.at < this.text.length && !VALUE_END.has(this.peek()!)) this.at++;
      const sofar = this.text.slice(start, this.at);
      const timeFollows = /^\d{2}:/.test(this.text.slice(this.at + 1, this.at + 4));
      if (/^\d{4}-\d{2}-\d{2}$/.test(sofar) && this.peek() === " " && timeFollows) this.at++;
      else break;
    }
    const token = this.text.slice(start, this.at);
    if (token === "") this.fail();
    return token === "true" ? true : token === "false" ? false : null;
  }
}
