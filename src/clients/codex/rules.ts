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
/**
 * This clone's rule, for a command agents are told that names a path of this machine (the
 * repository launcher, a devDependency's absolute path; decision 0030). Never committed: init
 * names it in the clone's `info/exclude`, as Claude's local settings.
 */
export const CODEX_LOCAL_RULES = ".codex/rules/tandem-local.rules";

const MARKER = "# Written by `tandem init`; `tandem deinit` deletes it.";
const LOCAL_MARKER =
  "# Written by `tandem init` for this clone only (git ignores it); `tandem deinit` deletes it.";

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

function rulesText(marker: string, argv: readonly string[]): string {
  const pattern = [...argv.map((w) => JSON.stringify(w)), '["task", "status"]'].join(", ");
  return [
    marker,
    "# Lets agents run Tandem's end-of-turn commands outside the sandbox without asking.",
    `prefix_rule(pattern = [${pattern}], decision = "allow")`,
    "",
  ].join("\n");
}

/** The file's whole text, or null when no portable rule exists (a devDependency's clone path). */
export function codexRulesText(launcher: string): string | null {
  const argv = words(launcher.trim());
  if (!argv) return null;
  const first = argv[0]!;
  if (first.includes("/") && !isAbsolute(first)) return null;
  return rulesText(MARKER, argv);
}

/**
 * The local file's text for the command agents are told (`agent`), or null when the committed
 * rule already names it (agents run the launcher as recorded) or it has no exact word form.
 */
export function codexLocalRulesText(launcher: string, agent: string): string | null {
  if (agent.trim() === launcher.trim() && codexRulesText(launcher) !== null) return null;
  const argv = words(agent.trim());
  return argv && isAbsolute(argv[0]!) ? rulesText(LOCAL_MARKER, argv) : null;
}

/** Tandem's own rules file, which init may rewrite and deinit deletes; anything else is left alone. */
export function isOurRulesFile(text: string): boolean {
  return text.startsWith(MARKER) || text.startsWith(LOCAL_MARKER);
}
