import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { CLIENTS, type ClientName } from "../clients/index.js";
import { shellQuote } from "./hook-command.js";

/**
 * How hooks start Tandem, decided from plain facts (pure). The committed client files must work on
 * every teammate's machine, so the default is a command that means the same thing everywhere:
 * `tandem` from PATH for a global install, the project's own `node_modules/.bin/tandem` for a
 * devDependency. Absolute paths only when asked for with `--command` (issue 13): a silent default
 * that works on one machine only would be committed and break every clone.
 */

/** The devDependency form, relative to the project root; anchored per client by `anchored`. */
export const PROJECT_LOCAL = "node_modules/.bin/tandem";

/** Claude runs hooks in the session's current directory, so a project path starts from here. */
const CLAUDE_ANCHOR = '"$CLAUDE_PROJECT_DIR"/';

export interface InstallFacts {
  /** Real path of the running bundle, or null when unknown. */
  script: string | null;
  /** Real path of the coordination root. */
  root: string;
  /** Real path of the bundle `tandem` on PATH starts, or null when there is none. */
  onPath: string | null;
  /**
   * The `tandem` file PATH found (its directory's real path), when PATH found one. npx and
   * `npm run` put the current project's `node_modules/.bin` first on PATH, so there it names
   * that project's install, not one every shell finds.
   */
  onPathFile?: string | null;
}

/** A launcher `init` writes and records in `.tandem/config.jsonc`. */
export interface LauncherChoice {
  launcher: string;
  /** Why the choice will not work on another machine, with what to do; null when portable. */
  warning: string | null;
}

export function isPinned(launcher: string): boolean {
  const first = launcher.trim().replace(/^['"]/, "");
  return isAbsolute(first) || first.startsWith("~");
}

const PINNED_WARNING =
  "Warning: the hooks call absolute paths on this machine, which do not exist on a teammate's. For a team, install Tandem (`npm install -g <git URL or tarball>`) and run `tandem init --command tandem`, or add it as a devDependency and run `npx tandem init`.";

/**
 * The default when `--command` is not given and `.tandem/config.jsonc` records none; null when
 * nothing portable would start this Tandem (then `noPortableLauncher` says what to do).
 */
export function chooseLauncher(facts: InstallFacts): LauncherChoice | null {
  const { script, root, onPath, onPathFile } = facts;
  if (script?.startsWith(join(root, "node_modules") + sep)) return { launcher: PROJECT_LOCAL, warning: null };
  if (!script || onPath !== script) return null;
  if (onPathFile && isProjectBin(onPathFile)) return projectBinLauncher(onPathFile, root);
  return { launcher: "tandem", warning: null };
}

/** `…/node_modules/.bin/tandem`: a project's install, on PATH only while npx or `npm run` runs. */
function isProjectBin(file: string): boolean {
  const bin = dirname(file);
  return basename(bin) === ".bin" && basename(dirname(bin)) === "node_modules";
}

/**
 * The install that ran `init` (typically `npx tandem init --root <repo>` from another project):
 * a bare `tandem` would not be found once npx is done, so every commit would fail. Inside the
 * root it is a project path, portable; elsewhere its absolute path, pinned with the warning.
 */
function projectBinLauncher(file: string, root: string): LauncherChoice {
  if (file.startsWith(root + sep)) return { launcher: relative(root, file), warning: null };
  return explicitLauncher(shellQuote(file));
}

/** Why init refuses without `--command`, with the exact line that pins this Tandem on purpose. */
export function noPortableLauncher(pinned: string): string {
  return [
    "this tandem is neither on PATH nor in the project's node_modules, so hooks written now would work on this machine only; nothing was written.",
    "  For a team: install Tandem (`npm install -g <git URL or tarball>`, or `npm install -D <git URL or tarball>` as a devDependency) and re-run `tandem init` (`npx tandem init` for a devDependency).",
    `  To pin this machine's Tandem on purpose: tandem init --command ${shellQuote(pinned)}`,
  ].join("\n");
}

/** A launcher given with `--command` (or recorded) is used as given; an absolute one gets the warning. */
export function explicitLauncher(launcher: string): LauncherChoice {
  return { launcher, warning: isPinned(launcher) ? PINNED_WARNING : null };
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
  // A client that gives its hooks CLAUDE_PROJECT_DIR (Claude) runs them where its session `cd`s.
  if (target !== "git" && CLIENTS[target].givesProjectDir) return `${CLAUDE_ANCHOR}${launcher}`;
  if (target === "git") {
    const [first, ...rest] = launcher.split(" ");
    return [shellQuote(join(root, first!)), ...rest].join(" ");
  }
  return launcher;
}

/** The launcher as recorded, from one a hook target wrote (undoes `anchored` for Claude's form). */
export function unanchored(launcher: string): string {
  return launcher.startsWith(CLAUDE_ANCHOR) ? launcher.slice(CLAUDE_ANCHOR.length) : launcher;
}
