/**
 * Reading what the impact queries print: `apply --numstat -z`, `clean -n` (whose names git may
 * quote), `rev-parse`, `config -z`, pathspec files. Status output is core/git/status.ts's.
 */
import { posix } from "node:path";
import type { Pick } from "./impact-rules.js";
import type { StatusEntry } from "./status.js";

/** Whether a rule that picks `pick` takes this dirty entry. */
export function picks(pick: Pick, e: StatusEntry): boolean {
  return (
    (!!pick.staged && e.staged) ||
    (!!pick.unstaged && e.unstaged) ||
    (!!pick.untracked && e.untracked) ||
    (!!pick.ignored && e.ignored) ||
    (!!pick.stagedThenChanged && e.staged && e.unstaged)
  );
}

/** `git apply --numstat -z`: `added\tdeleted\tpath`, or for a rename an empty path then source and target. */
export function parseNumstatZ(out: string): string[] {
  const parts = out.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const fields = parts[i]!.split("\t");
    if (fields.length < 3) continue;
    const path = fields.slice(2).join("\t");
    if (path !== "") paths.push(path);
    else paths.push(parts[++i] ?? "", parts[++i] ?? "");
  }
  return paths.filter((p) => p !== "");
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '"': 34, "\\": 92 };

/** Undoes git's C-style quoting (`"a\nb"`, `"\303\251"`); a name git did not quote is returned as is. */
export function unquoteC(name: string): string {
  if (!(name.length >= 2 && name.startsWith('"') && name.endsWith('"'))) return name;
  const bytes: number[] = [];
  const body = name.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = String.fromCodePoint(body.codePointAt(i)!);
    if (ch !== "\\") {
      bytes.push(...Buffer.from(ch, "utf8"));
      i += ch.length - 1; // a character outside the BMP takes two code units
      continue;
    }
    const next = body[++i] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString("utf8");
}

/**
 * `git clean -n`: the names after "Would remove", relative to the command's directory,
 * made relative to the top (`prefix` is the directory's own path from the top). A
 * directory keeps its trailing slash.
 */
export function parseCleanDryRun(out: string, prefix: string): string[] {
  const found: string[] = [];
  for (const line of out.split("\n")) {
    if (!line.startsWith("Would remove ")) continue;
    const name = unquoteC(line.slice("Would remove ".length));
    const dir = name.endsWith("/");
    const path = topRelative(prefix, name);
    if (path !== null) found.push(dir ? `${path}/` : path);
  }
  return found;
}

/** A path relative to the command's directory, from the top; null when it leaves the tree. */
export function topRelative(prefix: string, path: string): string | null {
  const joined = posix.normalize(posix.join(prefix, path));
  if (joined === "." || joined === "./") return "";
  if (joined === ".." || joined.startsWith("../")) return null;
  return joined.replace(/\/$/, "");
}

export interface RevParse {
  top: string;
  /** The command's directory from the top, with a trailing slash ("" at the top). */
  prefix: string;
  /** Whether the name asked for with `--verify` resolved. */
  verified: boolean;
  /** The remote-tracking refs that matched the `--glob` asked for, when the name did not resolve. */
  remotes: string[];
}

/**
 * `rev-parse --show-toplevel --show-prefix [--symbolic-full-name --glob=…] [--verify -q NAME]`:
 * the top and prefix lines, then the glob's ref names; NAME resolved when the exit is 0.
 */
export function parseRevParse(out: string, status: number, verifying: boolean): RevParse {
  const lines = out.split("\n");
  const rest = lines.slice(2).filter((l) => l !== "");
  const verified = verifying && status === 0;
  return {
    top: lines[0] ?? "",
    prefix: lines[1] ?? "",
    verified,
    // A resolved name makes the guess moot (and its symbolic name may print a line of its own).
    remotes: verified ? [] : rest,
  };
}

/** `git config -z --get-regexp`: `key\nvalue` records; a key alone (no `=`) is true. */
export function parseConfigZ(out: string): Map<string, string> {
  const config = new Map<string, string>();
  for (const record of out.split("\0")) {
    if (record === "") continue;
    const nl = record.indexOf("\n");
    if (nl === -1) config.set(record, "true");
    else config.set(record.slice(0, nl), record.slice(nl + 1));
  }
  return config;
}

/** A `--pathspec-from-file` body: NUL-separated, or lines (CR/LF too) that git may have quoted. */
export function parsePathspecFile(text: string, nul: boolean): string[] {
  if (nul) return text.split("\0").filter((s) => s !== "");
  return text
    .split("\n")
    .map((line) => unquoteC(line.replace(/\r$/, "")))
    .filter((s) => s !== "");
}
