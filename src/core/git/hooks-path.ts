import { isAbsolute, resolve } from "node:path";

/**
 * A `core.<key>` setting read from the text of a repository's git config file, so a hook knows it
 * without starting git: null when unset, true for a bare key (git's "true"), else its value. The
 * last setting wins, as in git; `include` files are not followed. Keys and section names ignore case.
 */
export function coreSetting(text: string, key: string): string | true | null {
  let inCore = false;
  let found: string | true | null = null;
  const entry = new RegExp(`^${key}\\s*(?:=(.*))?$`, "i");
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    const section = /^\[([^\]]*)\](.*)$/.exec(line);
    if (section) {
      // `[core "x"]` is a subsection, not core.
      inCore = section[1]!.trim().toLowerCase() === "core";
      line = section[2]!.trim();
    }
    if (!inCore) continue;
    const m = entry.exec(line);
    if (m) found = m[1] === undefined ? true : configValue(m[1]);
  }
  return found;
}

/** core.hooksPath (the hook falls back to asking git for hook-named targets when it is not here). */
export function hooksPathSetting(text: string): string | null {
  const found = coreSetting(text, "hookspath");
  return found === "" || found === true ? null : found;
}

/** A boolean `core.<key>` as git reads one (true/yes/on/1, or a bare key); false when unset. */
export function coreFlag(text: string, key: string): boolean {
  const v = coreSetting(text, key);
  return v === true || (v !== null && /^(?:true|yes|on|1)$/i.test(v));
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", b: "\b", '"': '"', "\\": "\\" };

/** A config value: quotes removed, escapes read, an unquoted `#` or `;` starts a comment. */
function configValue(text: string): string {
  let out = "";
  let quoted = false;
  // Whitespace is kept only when something other than whitespace follows it.
  let pending = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      out += pending + (ESCAPES[text[++i]!] ?? "");
      pending = "";
    } else if (c === '"') {
      out += pending;
      pending = "";
      quoted = !quoted;
    } else if (!quoted && (c === "#" || c === ";")) break;
    else if (!quoted && (c === " " || c === "\t")) pending += out === "" ? "" : c;
    else {
      out += pending + c;
      pending = "";
    }
  }
  return out;
}

/** The directory a core.hooksPath setting names: `~/` is the home directory, relative is from the top. */
export function hooksDirOf(setting: string, top: string, home: string | undefined): string {
  if (setting === "~" || setting.startsWith("~/")) return resolve(home ?? "/", `.${setting.slice(1)}`);
  return isAbsolute(setting) ? resolve(setting) : resolve(top, setting);
}
