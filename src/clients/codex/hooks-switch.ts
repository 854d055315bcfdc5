import { scanToml, type TomlPair } from "./toml-scan.js";

/**
 * The project's `.codex/config.toml` can switch every Codex hook off with `[features] hooks = false`
 * (docs/clients.md §2.1). Tandem does not write this file; init and the wiring's heal only take
 * such a setting out again, leaving every other byte as found (docs/decisions/0046). Pure.
 */

export const CODEX_CONFIG = ".codex/config.toml";
/** The person's own Codex config, relative to the home directory: read by doctor, never written. */
export const CODEX_USER_CONFIG = ".codex/config.toml";

/**
 * The feature keys that switch the hooks (observed, 0.171.0, with `codex features list` in a
 * trusted project): `hooks`, and `codex_hooks`, the older name it still reads. Written as a
 * `[features]` table, a dotted `features.hooks`, or an inline `features = { hooks = false }`.
 */
const SWITCH_KEYS: ReadonlySet<string> = new Set(["hooks", "codex_hooks"]);

const switchesOff = (p: TomlPair): boolean =>
  p.bool === false && p.path.length === 2 && p.path[0] === "features" && SWITCH_KEYS.has(p.path[1]!);

type Cut = [from: number, to: number];

/** A whole line (a TOML pair is alone on its line, with at most a comment after it). */
function lineCut(text: string, p: TomlPair): Cut {
  const from = text.lastIndexOf("\n", p.start - 1) + 1;
  const eol = text.indexOf("\n", p.end);
  return [from, eol < 0 ? text.length : eol + 1];
}

/** An inline table's member with the comma that separates it from a neighbour. */
function memberCut(text: string, p: TomlPair): Cut {
  let after = p.end;
  while (/[ \t\r\n]/.test(text[after] ?? "")) after++;
  if (text[after] === ",") {
    after++;
    while (/[ \t]/.test(text[after] ?? "")) after++;
    return [p.start, after];
  }
  let before = p.start;
  while (/[ \t\r\n]/.test(text[before - 1] ?? "")) before--;
  return text[before - 1] === "," ? [before - 1, p.end] : [p.start, p.end];
}

/** Overlapping cuts (two members sharing one comma) become one. */
function merged(cuts: Cut[]): Cut[] {
  const out: Cut[] = [];
  for (const c of [...cuts].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && c[0] <= last[1]) last[1] = Math.max(last[1], c[1]);
    else out.push([...c]);
  }
  return out;
}

const lineOf = (text: string, at: number): number => text.slice(0, at).split("\n").length;

/**
 * The file with every setting that switches Codex's hooks off taken out, and one line per setting;
 * null when none does, or when the text is not TOML (Codex then refuses to start, naming the file).
 */
export function codexHooksOn(text: string): { text: string; changes: string[] } | null {
  const off = scanToml(text)?.filter(switchesOff) ?? [];
  if (off.length === 0) return null;
  let out = text;
  for (const [from, to] of merged(off.map((p) => (p.inline ? memberCut : lineCut)(text, p))).reverse())
    out = out.slice(0, from) + out.slice(to);
  const changes = off.map(
    (p) =>
      `\`${text.slice(p.start, p.end)}\` on line ${lineOf(text, p.start)} set features.${p.path[1]} = false, which switches every Codex hook off; removed it`,
  );
  return { text: out, changes };
}
