/**
 * Files holding this clone's absolute allow rules (`.claude/settings.local.json`,
 * `.codex/rules/tandem-local.rules`) must never be committed: init names each in the clone's own
 * `info/exclude` (per clone, like the files themselves, unlike a committed `.gitignore`) under a
 * marker comment of its own, and deinit takes out exactly the lines init added.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CODEX_LOCAL_RULES } from "../clients/codex/rules.js";
import { git, gitStatus } from "../git/run.js";
import { LOCAL_SETTINGS } from "./allow-rules.js";
import { writeAtomic } from "./apply.js";

/** One excluded file: the comment that marks init's line, so deinit never removes another's. */
export interface LocalFile {
  mark: string;
  path: string;
}

export const EXCLUDE_MARK =
  "# tandem init: this clone's Claude Code allow rules (tandem deinit removes these lines)";

export const CLAUDE_LOCAL: LocalFile = { mark: EXCLUDE_MARK, path: LOCAL_SETTINGS };
export const CODEX_LOCAL: LocalFile = {
  mark: "# tandem init: this clone's Codex rule (tandem deinit removes these lines)",
  path: CODEX_LOCAL_RULES,
};

/** `text` with init's two lines appended (null: they are there already). */
export function withExclude(text: string, f: LocalFile = CLAUDE_LOCAL): string | null {
  const lines = text.split("\n");
  if (lines.includes(f.mark)) return null;
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  return `${text}${sep}${f.mark}\n/${f.path}\n`;
}

/** `text` without init's marked line pair (null: nothing of init's is there). */
export function withoutExclude(text: string, f: LocalFile = CLAUDE_LOCAL): string | null {
  const lines = text.split("\n");
  const at = lines.indexOf(f.mark);
  if (at < 0) return null;
  lines.splice(at, lines[at + 1] === `/${f.path}` ? 2 : 1);
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
 * After init wrote the local files: excludes each that exists unless git already ignores it.
 * Returns the files it excluded now (paths relative to the root) and the exclude file.
 */
export function excludeLocalFiles(root: string): { paths: string[]; file: string } | null {
  const file = excludeFile(root);
  const paths: string[] = [];
  for (const f of [CLAUDE_LOCAL, CODEX_LOCAL]) {
    if (!existsSync(join(root, f.path))) continue;
    if (gitStatus(root, ["check-ignore", "-q", "--", f.path]).status === 0) continue;
    const next = withExclude(readText(file), f);
    if (next === null) continue;
    writeAtomic(file, next, false);
    paths.push(f.path);
  }
  return paths.length > 0 ? { paths, file } : null;
}

/** After deinit of these clients: removes init's lines, so the clone is as it was before init. */
export function unexcludeLocalFiles(root: string, clients: readonly string[]): void {
  const file = excludeFile(root);
  const of = [
    clients.includes("claude-code") ? CLAUDE_LOCAL : null,
    clients.includes("codex") ? CODEX_LOCAL : null,
  ];
  for (const f of of) {
    if (!f) continue;
    const next = withoutExclude(readText(file), f);
    if (next !== null) writeAtomic(file, next, false);
  }
}
