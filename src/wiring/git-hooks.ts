/**
 * Tandem's block in git hook scripts, as pure text transformations. The block is delimited by
 * marker lines so it can be replaced or removed without touching anything the user wrote.
 */

import type { GitHookName } from "../core/git/hook-names.js";
import { shellQuote } from "../core/shell/quote.js";

export const REGION_START = "# >>> tandem >>>";
export const REGION_END = "# <<< tandem <<<";
const NEW_SHEBANG = "#!/bin/sh";

/** sh, bash, dash, zsh, ksh — directly or through env. Our lines are POSIX shell. */
const SHELL_SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|da|z|k|mk|a)?sh(?:\s|$)/;

/**
 * How the git hooks start Tandem (decision 0049): the command agents are told first, since an
 * agent's login shell runs git, then the recorded launcher a person's terminal finds. A command
 * that cannot start (exit 126 or 127: not found, not runnable, no Node) passes to the next; when
 * none starts, pre-commit stops the commit with `repair` and the post-* hooks say so.
 */
export interface HookLaunch {
  commands: readonly string[];
  /** What a person runs to fix the hooks, e.g. `cd '/r' && tandem init`, and to check them. */
  repair: string;
  check: string;
}

/** The block's launch: `agent` then `natural` (once when they are the same), repaired from `root`. */
export function hookLaunch(agent: string, natural: string, root: string): HookLaunch {
  const commands = agent === natural ? [agent] : [agent, natural];
  return { commands, repair: `cd ${shellQuote(root)} && ${natural} init`, check: `${natural} doctor` };
}

/** What pre-commit prints when no command starts Tandem; `tandem doctor` looks for it. */
export const CANNOT_START = "the pre-commit hook could not start Tandem";

/** The hook's call of Tandem, as init's summary shows it. */
export function hookCall(name: GitHookName, launch: HookLaunch): string {
  return `${launch.commands[0]} git-hook ${name} "$@"`;
}

function cannotStart(name: GitHookName, launch: HookLaunch): string {
  const tried = launch.commands.map((c) => `\`${c}\``).join(" and ");
  const found = `${tried} ${launch.commands.length > 1 ? "are" : "is"} not found or cannot start`;
  const fix = `run \`${launch.repair}\` from a shell where Tandem runs, then \`${launch.check}\` to check that commits start it.`;
  if (name === "pre-commit")
    return `tandem: commit stopped: ${CANNOT_START} (${found}), so nothing checks it against files other agent sessions are editing. To fix: ${fix}`;
  const meanwhile =
    name === "prepare-commit-msg"
      ? "commits go without Tandem's provenance trailers"
      : "claims on clean files stay";
  return `tandem: warning: the ${name} hook could not start Tandem (${found}); ${meanwhile} until it can. To fix: ${fix}`;
}

/**
 * The block. `tandem_rc=0; … || tandem_rc=$?` keeps a `#!/bin/sh -e` hook running to the check;
 * pre-commit may refuse the commit, the post-* hooks run after the fact and never fail git.
 */
export function regionLines(name: GitHookName, launch: HookLaunch): string[] {
  const [first, ...rest] = launch.commands;
  const call = (c: string) => `tandem_rc=0; ${c} git-hook ${name} "$@" || tandem_rc=$?`;
  const say = `printf '%s\\n' ${shellQuote(cannotStart(name, launch))} >&2`;
  const last =
    name === "pre-commit"
      ? `case $tandem_rc in 126|127) ${say}; exit 1 ;; 0) ;; *) exit "$tandem_rc" ;; esac`
      : `case $tandem_rc in 126|127) ${say} ;; esac`;
  return [
    REGION_START,
    "# Added by `tandem init`; `tandem deinit` removes it. Edits inside this block are overwritten.",
    call(first!),
    ...rest.map((c) => `case $tandem_rc in 126|127) ${call(c)} ;; esac`),
    last,
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
export function installRegion(current: string | null, name: GitHookName, launch: HookLaunch): HookText {
  const region = regionLines(name, launch);
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
        reason: `is not a shell script (${head}); call \`${hookCall(name, launch)}\` from it yourself, or re-run with --no-git-hooks`,
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
