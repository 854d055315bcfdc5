import { isAbsolute, resolve } from "node:path";

/**
 * core.hooksPath read from the text of a repository's git config file, so the pre-tool hook
 * knows where git runs hooks from without starting git. The last setting wins, as in git;
 * `include` files are not followed (the hook falls back to asking git for hook-named targets).
 */
export function hooksPathSetting(text: string): string | null {
  let inCore = false;
  let found: string | null = null;
  for (const raw of text.split("\n")) {
    let line = raw.trim();
    const section = /^\[([^\]]*)\](.*)$/.exec(line);
    if (section) {
      // `[core "x"]` is a subsection, not core; section names ignore case.
      inCore = section[1]!.trim().toLowerCase() === "core";
      line = section[2]!.trim();
    }
    if (!inCore) continue;
    const entry = /^hookspath\s*=(.*)$/i.exec(line);
    if (entry) found = configValue(entry[1]!);
  }
  return found === "" ? null : found;
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
