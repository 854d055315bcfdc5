import { isAbsolute, join, sep } from "node:path";
import type { ClientName } from "../clients/types.js";
import { shellQuote } from "./hook-command.js";

/**
 * How hooks start Tandem, decided from plain facts (pure). The committed client files must work on
 * every teammate's machine, so the default is a command that means the same thing everywhere:
 * `tandem` from PATH for a global install, the project's own `node_modules/.bin/tandem` for a
 * devDependency. Absolute paths are used only when nothing portable would start this Tandem.
 */

/** The devDependency form, relative to the project root; anchored per client by `anchored`. */
export const PROJECT_LOCAL = "node_modules/.bin/tandem";

export interface InstallFacts {
  /** Real path of the running bundle, or null when unknown. */
  script: string | null;
  /** Real path of the coordination root. */
  root: string;
  /** Real path of the bundle `tandem` on PATH starts, or null when there is none. */
  onPath: string | null;
}

export interface LauncherChoice {
  launcher: string;
  /** Whether `.tandem/config.jsonc` records it (absolute paths stay out of committed files). */
  record: boolean;
  /** Why the choice will not work on another machine, with what to do; null when portable. */
  warning: string | null;
}

export function isPinned(launcher: string): boolean {
  const first = launcher.trim().replace(/^['"]/, "");
  return isAbsolute(first) || first.startsWith("~");
}

const PINNED_WARNING =
  "Warning: the hooks call absolute paths on this machine, which do not exist on a teammate's. For a team, install Tandem (`npm install -g <git URL or tarball>`) and run `tandem init --command tandem`, or add it as a devDependency and run `npx tandem init`.";

/** The default when `--command` is not given and `.tandem/config.jsonc` records none. */
export function chooseLauncher(facts: InstallFacts, pinned: string): LauncherChoice {
  const { script, root, onPath } = facts;
  if (script?.startsWith(join(root, "node_modules") + sep))
    return { launcher: PROJECT_LOCAL, record: true, warning: null };
  if (script && onPath === script) return { launcher: "tandem", record: true, warning: null };
  return { launcher: pinned, record: false, warning: PINNED_WARNING };
}

/** A launcher given with `--command` is recorded as given; an absolute one gets the warning. */
export function explicitLauncher(launcher: string): LauncherChoice {
  return { launcher, record: true, warning: isPinned(launcher) ? PINNED_WARNING : null };
}

/** `node_modules/.bin/tandem`-like: a relative path, meaning "from the project root". */
function projectRelative(launcher: string): boolean {
  const first = launcher.split(/\s/, 1)[0]!;
  return first.includes("/") && !isAbsolute(first) && !/^[~$"']/.test(first);
}

/**
 * The launcher as one hook target must write it. Claude runs hooks in the session's current
 * directory, which follows `cd`, so it is anchored on `$CLAUDE_PROJECT_DIR`; Codex and Cursor run
 * them from the project (docs/clients.md); git hooks are never committed, so they take the
 * absolute path, which also holds in sub-agent worktrees that have no node_modules.
 */
export function anchored(launcher: string, target: ClientName | "git", root: string): string {
  if (!projectRelative(launcher)) return launcher;
  if (target === "claude-code") return `"$CLAUDE_PROJECT_DIR"/${launcher}`;
  if (target === "git") {
    const [first, ...rest] = launcher.split(" ");
    return [shellQuote(join(root, first!)), ...rest].join(" ");
  }
  return launcher;
}
