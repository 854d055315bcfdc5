/**
 * Tandem's block in git hook scripts, as pure text transformations. The block is delimited by
 * marker lines so it can be replaced or removed without touching anything the user wrote.
 */

import type { GitHookName } from "../core/git/hook-names.js";

export const REGION_START = "# >>> tandem >>>";
export const REGION_END = "# <<< tandem <<<";
const NEW_SHEBANG = "#!/bin/sh";

/** sh, bash, dash, zsh, ksh — directly or through env. Our lines are POSIX shell. */
const SHELL_SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k|mk|a)?sh(?:\s|$)/;

export function regionLines(name: GitHookName, launcher: string): string[] {
  // pre-commit may refuse the commit; the post-* hooks run after the fact and must never fail git.
  const tail = name === "pre-commit" ? "|| exit $?" : "|| true";
  return [
    REGION_START,
    "# Added by `tandem init`; `tandem deinit` removes it. Edits inside this block are overwritten.",
    `${launcher} git-hook ${name} "$@" ${tail}`,
    REGION_END,
  ];
}

export type HookText = { ok: true; text: string | null } | { ok: false; reason: string };

interface Split {
  lines: string[];
  /** Index of each region's first and last line. */
  regions: [number, number][];
  unterminated: boolean;
}

function split(text: string): Split {
  const lines = text.split("\n");
  const regions: [number, number][] = [];
  let open = -1;
  lines.forEach((line, i) => {
    const t = line.trim();
    if (t === REGION_START && open < 0) open = i;
    else if (t === REGION_END && open >= 0) {
      regions.push([open, i]);
      open = -1;
    }
  });
  return { lines, regions, unterminated: open >= 0 };
}

function withoutRegions(s: Split): string[] {
  return s.lines.filter((_, i) => !s.regions.some(([a, b]) => i >= a && i <= b));
}

const UNTERMINATED = `has "${REGION_START}" without "${REGION_END}"; delete the broken Tandem lines and re-run`;

/**
 * The hook script with our block: an existing block is replaced where it is, otherwise the block
 * goes right after the shebang so it runs before the user's commands. A new file is `#!/bin/sh`.
 */
export function installRegion(current: string | null, name: GitHookName, launcher: string): HookText {
  const region = regionLines(name, launcher);
  if (current === null || current.trim() === "")
    return { ok: true, text: [NEW_SHEBANG, ...region, ""].join("\n") };
  const s = split(current);
  if (s.unterminated) return { ok: false, reason: UNTERMINATED };
  const first = s.regions[0];
  if (first) {
    // Replace the first block where it stands; any duplicate blocks go.
    const out: string[] = [];
    s.lines.forEach((line, i) => {
      const inside = s.regions.find(([a, b]) => i >= a && i <= b);
      if (!inside) out.push(line);
      else if (inside === first && i === first[0]) out.push(...region);
    });
    return { ok: true, text: out.join("\n") };
  }
  const [head, ...rest] = s.lines;
  if (head?.startsWith("#!")) {
    if (!SHELL_SHEBANG.test(head)) {
      return {
        ok: false,
        reason: `is not a shell script (${head}); call \`${launcher} git-hook ${name} "$@"\` from it yourself, or re-run with --no-git-hooks`,
      };
    }
    return { ok: true, text: [head, ...region, ...rest].join("\n") };
  }
  // No shebang: git runs such a file with the shell, so a shebang for the shell changes nothing.
  return { ok: true, text: [NEW_SHEBANG, ...region, ...s.lines].join("\n") };
}

/** The hook without our block; null when nothing but a shebang (or nothing) would be left. */
export function removeRegion(current: string | null): HookText {
  if (current === null) return { ok: true, text: null };
  const s = split(current);
  if (s.unterminated) return { ok: false, reason: UNTERMINATED };
  if (s.regions.length === 0) return { ok: true, text: current };
  const kept = withoutRegions(s);
  const meaningful = kept.filter((l, i) => l.trim() !== "" && !(i === 0 && l.startsWith("#!")));
  return { ok: true, text: meaningful.length === 0 ? null : kept.join("\n") };
}

export function hasRegion(current: string | null): boolean {
  return current !== null && split(current).regions.length > 0;
}
