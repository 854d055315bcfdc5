import { isAbsolute } from "node:path";

/**
 * Codex's counterpart of Claude's allow rules (issue 14): a project `.codex/rules/tandem.rules`
 * with one `prefix_rule`, so `tandem task …` and `tandem status …` run outside the sandbox without
 * asking (the workspace-write sandbox keeps `.git`, where Tandem's store is, read-only). Codex
 * matches the argument list from its first word exactly (docs/clients.md §2.1), so the rule can
 * only name a launcher that is spelled the same on every machine, or a pinned one, whose committed
 * hooks are machine-bound already. Pure.
 */

export const CODEX_RULES = ".codex/rules/tandem.rules";

const MARKER = "# Written by `tandem init`; `tandem deinit` deletes it.";

/** Shell words of a launcher as `init` writes them: plain words or single-quoted ones. */
function words(launcher: string): string[] | null {
  const out: string[] = [];
  const re = /\s*(?:'((?:[^']|'\\'')*)'|([^\s'"\\$`]+))/y;
  let at = 0;
  for (;;) {
    const m = re.exec(launcher);
    if (!m) break;
    out.push(m[1] === undefined ? m[2]! : m[1].replaceAll("'\\''", "'"));
    at = re.lastIndex;
  }
  return launcher.slice(at).trim() === "" && out.length > 0 ? out : null;
}

/** The file's whole text, or null when no portable rule exists (a devDependency's clone path). */
export function codexRulesText(launcher: string): string | null {
  const argv = words(launcher.trim());
  if (!argv) return null;
  const first = argv[0]!;
  if (first.includes("/") && !isAbsolute(first)) return null;
  const pattern = [...argv.map((w) => JSON.stringify(w)), '["task", "status"]'].join(", ");
  return [
    MARKER,
    "# Lets agents run Tandem's end-of-turn commands outside the sandbox without asking.",
    `prefix_rule(pattern = [${pattern}], decision = "allow")`,
    "",
  ].join("\n");
}

/** Tandem's own rules file, which init may rewrite and deinit deletes; anything else is left alone. */
export function isOurRulesFile(text: string): boolean {
  return text.startsWith(MARKER);
}
