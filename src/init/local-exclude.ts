/**
 * `.claude/settings.local.json` holds this clone's absolute allow rules, so it must never be
 * committed: init names it in the clone's own `info/exclude` (per clone, like the file itself,
 * unlike a committed `.gitignore`), and deinit takes out exactly the lines init added.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { git, gitStatus } from "../git/run.js";
import { LOCAL_SETTINGS } from "./allow-rules.js";
import { writeAtomic } from "./apply.js";

/** The comment that marks init's line, so deinit never removes a line someone else wrote. */
export const EXCLUDE_MARK =
  "# tandem init: this clone's Claude Code allow rules (tandem deinit removes these lines)";
const EXCLUDE_LINE = `/${LOCAL_SETTINGS}`;

/** `text` with init's two lines appended (null: they are there already). */
export function withExclude(text: string): string | null {
  const lines = text.split("\n");
  if (lines.includes(EXCLUDE_MARK)) return null;
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  return `${text}${sep}${EXCLUDE_MARK}\n${EXCLUDE_LINE}\n`;
}

/** `text` without init's marked line pair (null: nothing of init's is there). */
export function withoutExclude(text: string): string | null {
  const lines = text.split("\n");
  const at = lines.indexOf(EXCLUDE_MARK);
  if (at < 0) return null;
  lines.splice(at, lines[at + 1] === EXCLUDE_LINE ? 2 : 1);
  return lines.join("\n");
}

/** This clone's exclude file; linked worktrees share the main one's. */
function excludeFile(root: string): string {
  return resolve(root, git(root, ["rev-parse", "--git-path", "info/exclude"]).trim());
}

function readText(path: string): string {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

/**
 * After init wrote the local settings: excludes them unless git already ignores them. Returns
 * the exclude file it wrote to, else null.
 */
export function excludeLocalSettings(root: string): string | null {
  if (!existsSync(join(root, LOCAL_SETTINGS))) return null;
  if (gitStatus(root, ["check-ignore", "-q", "--", LOCAL_SETTINGS]).status === 0) return null;
  const file = excludeFile(root);
  const next = withExclude(readText(file));
  if (next === null) return null;
  writeAtomic(file, next, false);
  return file;
}

/** After deinit: removes init's lines, so the clone is as it was before init. */
export function unexcludeLocalSettings(root: string): void {
  const file = excludeFile(root);
  const next = withoutExclude(readText(file));
  if (next !== null) writeAtomic(file, next, false);
}
