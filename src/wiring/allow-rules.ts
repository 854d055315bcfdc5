import { CLIENTS, type ClientName } from "../clients/index.js";
import { naturalCommand } from "../core/shell/agent-command.js";
import type { JsonOp } from "./json-edit.js";
import { type HookChange, isObject, type Reconciled } from "./reconcile.js";

/**
 * Claude Code allow rules for the commands Tandem tells agents to run (`<cmd> task "…"`,
 * `<cmd> status [--end-turn]`), so the ritual runs without an approval prompt in default and
 * accept-edits modes (issue 14). Claude splits `a && b` and matches each part on its own; a
 * `Bash(<prefix>:*)` rule matches the prefix alone or followed by a space and anything
 * (docs/clients.md §1.7). Pure: rules are chosen from the launcher and edited as data.
 */

export interface AllowRules {
  /** For the committed `.claude/settings.json`. */
  project: string[];
  /** For `.claude/settings.local.json`, which each clone's `tandem init` writes and git never sees. */
  local: string[];
}

export const LOCAL_SETTINGS = ".claude/settings.local.json";

/**
 * Whether a client's settings file takes these rules (`ClientSpec.allowRules`): Qwen Code 0.24.4
 * reads `Bash(<prefix>:*)` as Claude does and matches each part of `a && b` on its own
 * (docs/clients.md §15.6, decision 0059). Qwen has no uncommitted settings file: it gets the
 * committed rules only.
 */
export function takesAllowRules(client: ClientName): boolean {
  return CLIENTS[client].allowRules === true;
}

const rulesFor = (cmd: string): string[] => [`Bash(${cmd} task:*)`, `Bash(${cmd} status:*)`];

/**
 * Rules for the launcher and for `agent`, the command agents are told (src/wiring/agent-launch.ts).
 * A PATH word (`tandem`, `npx tandem`) means the same on every machine and a pinned launcher is
 * already machine-bound in the committed file: their rules go there, whatever this machine's
 * agents are told, so the committed file never depends on one machine's login shell. When agents
 * are told something else, it is a path of this clone (a devDependency's absolute path, the
 * repository launcher), and a portable rule would need a leading `*`, which also matches `node -e
 * '…' /node_modules/.bin/tandem task x` (it ran unprompted in 2.1.332): so exact rules, in the
 * local file.
 */
export function claudeAllowRules(launcher: string, agent: string, root: string): AllowRules {
  const portable = naturalCommand(launcher, root) === launcher.trim();
  return {
    project: portable ? rulesFor(launcher.trim()) : [],
    local: agent === launcher.trim() ? [] : rulesFor(agent),
  };
}

/**
 * `Bash(<launcher> task|status …)` where the launcher ends in a word `tandem` or `tandem.cjs`
 * (optionally closing a quote): the shape of every rule Tandem writes, whatever its launcher.
 */
const OURS = /^Bash\((?:.*[\s/"'*])?tandem(?:\.cjs)?["']? (?:task|status)(?::\*| \*)?\)$/;

export function isTandemRule(rule: unknown): boolean {
  return typeof rule === "string" && OURS.test(rule);
}

const change = (kind: HookChange["kind"], detail: string): HookChange => ({
  event: "permissions.allow",
  kind,
  detail,
});

/**
 * Makes `permissions.allow` hold exactly `wanted` among Tandem-shaped rules: missing ones appended,
 * other Tandem rules (an old launcher's, duplicates) removed, every foreign rule kept in place.
 * `allow` is removed when Tandem's rules were all it held; an empty `permissions` is left for the
 * file's skeleton test (`isSkeleton`), so deinit restores a file that had one byte for byte.
 */
export function reconcileRules(permissions: unknown, wanted: readonly string[]): Reconciled {
  if (permissions !== undefined && !isObject(permissions))
    return { ok: false, reason: `"permissions" is not an object` };
  const allow = permissions?.allow;
  if (allow !== undefined && !Array.isArray(allow))
    return { ok: false, reason: `"permissions.allow" is not an array` };
  const items: unknown[] = allow ?? [];
  const seen = new Set<string>();
  const stale: number[] = [];
  items.forEach((rule, i) => {
    if (!isTandemRule(rule)) return;
    if (wanted.includes(rule as string) && !seen.has(rule as string)) seen.add(rule as string);
    else stale.push(i);
  });
  const missing = wanted.filter((r) => !seen.has(r));
  const changes = [
    ...stale.map((i) => change("remove", `Tandem rule ${items[i]} is not wanted`)),
    ...missing.map((r) => change("add", `allow rule ${r} missing`)),
  ];
  const emptied = stale.length > 0 && stale.length === items.length && missing.length === 0;
  if (emptied) return { ok: true, ops: [{ op: "remove", path: ["permissions", "allow"] }], changes };
  const ops: JsonOp[] = [
    ...stale.reverse().map((i): JsonOp => ({ op: "remove", path: ["permissions", "allow", i] })),
    ...missing.map((r): JsonOp => ({ op: "append", path: ["permissions", "allow"], value: r })),
  ];
  return { ok: true, ops, changes };
}
