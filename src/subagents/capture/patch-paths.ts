import { unquoteAt, unquoteField } from "./cquote.js";

/**
 * Every path a patch may touch, from an mbox of format-patch messages or a plain
 * `git diff`: both sides of each `diff --git` header, rename and copy sources and
 * destinations, and the `---`/`+++` names. It over-approximates on purpose: an
 * unquoted header whose names contain spaces is split at every candidate point
 * unless one split gives two equal names, and lines that only look like headers
 * (inside a commit message) count too. A path gate built on it may refuse too
 * much, never too little. Stored blobs are read by patch-scan.ts, which feeds the header lines
 * of a streamed patch to the same parser.
 */
export function patchPaths(text: string): Set<string> {
  const out = new Set<string>();
  const state: ParseState = { hunk: null, binary: false };
  for (const line of text.split("\n")) parseLine(line, state, out);
  out.delete("");
  return out;
}

export interface ParseState {
  /** Lines still expected in the current hunk (old side, new side); null outside a hunk. */
  hunk: { old: number; new: number } | null;
  /** Inside base85 binary data, which has no path lines. */
  binary: boolean;
}

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const MBOX_FROM = /^From [0-9a-f]{40,64} Mon Sep 17 00:00:00 2001$/;
const NAMED = /^(?:rename from|rename to|copy from|copy to) (.*)$/;

/** One line of a patch: the paths it names go into `out`. */
export function parseLine(line: string, state: ParseState, out: Set<string>): void {
  // A section header can never be a hunk line (those start with ' ', '+', '-' or '\').
  if (line.startsWith("diff --git ")) {
    state.hunk = null;
    state.binary = false;
    for (const p of headerPaths(line.slice("diff --git ".length))) out.add(p);
    return;
  }
  if (MBOX_FROM.test(line)) {
    state.hunk = null;
    state.binary = false;
    return;
  }
  if (state.hunk) {
    countHunkLine(line, state);
    return;
  }
  if (state.binary) return;
  if (line === "GIT binary patch") {
    state.binary = true;
    return;
  }
  const hunk = HUNK.exec(line);
  if (hunk) {
    state.hunk = { old: Number(hunk[1] ?? 1), new: Number(hunk[2] ?? 1) };
    if (state.hunk.old === 0 && state.hunk.new === 0) state.hunk = null;
    return;
  }
  const named = NAMED.exec(line);
  if (named) {
    out.add(unquoteField(named[1]!));
    return;
  }
  if (line.startsWith("--- ") || line.startsWith("+++ ")) {
    const name = sideName(line.slice(4));
    if (name !== null) out.add(name);
  }
}

function countHunkLine(line: string, state: ParseState): void {
  const h = state.hunk!;
  const c = line[0];
  if (c === " " || line === "") {
    h.old--;
    h.new--;
  } else if (c === "-") h.old--;
  else if (c === "+") h.new--;
  else if (c !== "\\") {
    // Not a hunk line after all: the count was wrong; fall back to header parsing.
    state.hunk = null;
    return;
  }
  if (h.old <= 0 && h.new <= 0) state.hunk = null;
}

/** A `---`/`+++` name: `/dev/null` is none; git adds a tab after names with spaces. */
function sideName(field: string): string | null {
  let f = field;
  if (f.endsWith("\t")) f = f.slice(0, -1);
  if (f === "/dev/null") return null;
  const name = unquoteField(f);
  return stripPrefix(name) ?? name;
}

function stripPrefix(name: string): string | null {
  return name.startsWith("a/") || name.startsWith("b/") ? name.slice(2) : null;
}

/** Both names of a `diff --git` header, every plausible split when unquoted names are ambiguous. */
export function headerPaths(rest: string): string[] {
  const pairs = headerSplits(rest);
  const equal = pairs.find(([a, b]) => a === b);
  if (equal) return [equal[0]];
  return [...new Set(pairs.flat())];
}

function headerSplits(rest: string): [string, string][] {
  if (rest.startsWith('"')) {
    const a = unquoteAt(rest, 0);
    if (!a || rest[a.end] !== " ") return [];
    return pair(a.name, unquoteField(rest.slice(a.end + 1)));
  }
  const pairs: [string, string][] = [];
  for (let i = rest.indexOf(" "); i !== -1; i = rest.indexOf(" ", i + 1)) {
    const right = rest.slice(i + 1);
    if (right.startsWith('"')) {
      const b = unquoteAt(right, 0);
      if (b && b.end === right.length) pairs.push(...pair(rest.slice(0, i), b.name));
    } else if (right.startsWith("b/")) pairs.push(...pair(rest.slice(0, i), right));
  }
  return pairs;
}

function pair(a: string, b: string): [string, string][] {
  const left = stripPrefix(a);
  const right = stripPrefix(b);
  return left !== null && right !== null ? [[left, right]] : [];
}
