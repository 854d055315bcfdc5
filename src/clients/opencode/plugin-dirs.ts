import { dirname, join, relative } from "node:path";
import { PLUGIN_FILE } from "./plugin.js";

/**
 * Where opencode loads plugins from besides Tandem's own file (docs/clients.md §16.1): every
 * `{plugin,plugins}/*.{js,ts}` of each config directory, and the `plugin` entries of each
 * `opencode.json(c)`. Any of them runs in the same hooks as Tandem's and can change a tool's
 * arguments after Tandem's check, or stop it (issue 37.5). Pure: the caller lists the folders.
 */

export const PLUGIN_FOLDERS = ["plugin", "plugins"] as const;
export const CONFIG_FILES = ["opencode.json", "opencode.jsonc"] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** The person's own config directories: `$XDG_CONFIG_HOME/opencode` (`~/.config`), `$OPENCODE_CONFIG_DIR`. */
export function userConfigDirs(env: Env, home: string): string[] {
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  return [join(xdg, "opencode"), ...(env.OPENCODE_CONFIG_DIR ? [env.OPENCODE_CONFIG_DIR] : [])];
}

/** The project's: `.opencode/`; its config files also sit at the root. */
export function projectConfigDirs(root: string): { dir: string; configs: string[] } {
  const dir = join(root, ".opencode");
  return { dir, configs: [dir, root].flatMap((d) => CONFIG_FILES.map((f) => join(d, f))) };
}

/** A module opencode loads from a plugin folder, other than Tandem's own file. */
export function isForeignPlugin(root: string | null, path: string): boolean {
  if (!/\.(js|ts)$/.test(path)) return false;
  return root === null || path !== join(root, PLUGIN_FILE);
}

/** The `plugin` entries of a parsed `opencode.json(c)`, as the names it loads. */
export function configPlugins(doc: unknown): string[] {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return [];
  const list = (doc as { plugin?: unknown }).plugin;
  if (!Array.isArray(list)) return [];
  return list.map((p) => (typeof p === "string" ? p : JSON.stringify(p)));
}

/**
 * The directories above the project up to the work tree's top, nearest first: opencode reads
 * each one's `.opencode/` and `opencode.json(c)` too (a Tandem root below the repository's top).
 */
export function parentDirs(root: string, top: string | null): string[] {
  if (top === null || root === top || relative(top, root).startsWith("..")) return [];
  const out: string[] = [];
  for (let d = dirname(root); d !== top && d !== dirname(d); d = dirname(d)) out.push(d);
  return [...out, top];
}
