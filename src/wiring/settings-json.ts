import type { ClientName } from "../clients/index.js";
import type { ClientSpec, SettingsSwitch } from "../clients/types.js";
import { reconcileRules, takesAllowRules } from "./allow-rules.js";
import type { ClientFileFormat, Mode } from "./client-file.js";
import { hookCommand, parseOurCommand } from "./hook-command.js";
import { isObject, type Layout, type WantedHook } from "./reconcile.js";

/**
 * Claude Code's `.claude/settings.json` and Codex's `.codex/hooks.json`:
 * `{hooks: {Event: [{matcher?, hooks: [{type: "command", command, timeout?}]}]}}` (docs/clients.md §1.1, §2.1).
 */

/** Codex rejects the whole file for any other top-level key (docs/clients.md §2.1, observed in 0.171.0). */
const CODEX_TOP_LEVEL = new Set(["description", "hooks"]);

function handlers(group: unknown): unknown[] {
  return isObject(group) && Array.isArray(group.hooks) ? group.hooks : [];
}

export const nestedLayout: Layout = {
  ours: (group) =>
    handlers(group).flatMap((h, i) => (isObject(h) && parseOurCommand(h.command) ? [["hooks", i]] : [])),
  size: (group) => handlers(group).length,
};

/** One matcher group holding our one handler, in the key order users see in the docs. */
export function nestedWanted(client: ClientSpec<ClientName>, launcher: string): WantedHook[] {
  return client.events.map((e) => ({
    event: e.native,
    unit: {
      ...(e.matcher === undefined ? {} : { matcher: e.matcher }),
      hooks: [
        {
          type: "command",
          command: hookCommand(launcher, client.name, e.cli),
          ...(e.timeout === undefined ? {} : { timeout: e.timeout }),
          ...(e.statusMessage === undefined ? {} : { statusMessage: e.statusMessage }),
          ...(e.name === undefined ? {} : { name: e.name }),
        },
      ],
    },
  }));
}

/** Claude's (and Qwen's) allow rules: `rules` for init, none left by deinit. */
const allowRules = (rules: readonly string[]) => (doc: Record<string, unknown>, mode: Mode) =>
  reconcileRules(doc.permissions, mode === "init" ? rules : []);

/** The `keys` (ClientSpec.settingsKeys) a document lacks, as the edits that add them. */
function missingKeys(doc: Record<string, unknown>, keys: Readonly<Record<string, unknown>>) {
  const absent = Object.keys(keys).filter((k) => doc[k] === undefined);
  return {
    ops: absent.map((k) => ({ op: "set" as const, path: [k], value: keys[k] })),
    changes: absent.map((k) => ({ event: "settings", kind: "add" as const, detail: `${k} missing` })),
  };
}

/** The client's switches set in a document (ClientSpec.settingsSwitches), as the edits that take them out. */
export function switchesOff(doc: Record<string, unknown>, switches: readonly SettingsSwitch[]) {
  const found = switches.flatMap((sw) => sw.switchedOff(doc));
  return {
    ops: found.map((f) => ({ op: "remove" as const, path: f.path })),
    changes: found.map((f) => ({ event: "switch", kind: "remove" as const, detail: f.says })),
  };
}

/**
 * `rules`: the allow rules Claude's or Qwen's file should hold (src/wiring/allow-rules.ts); ignored
 * for the other clients.
 * `keys`: top-level keys the client needs beside the hooks (ClientSpec.settingsKeys).
 * `switches`: the keys that switch the client's hooks off in this file, taken out by init.
 */
export function nestedFormat(
  client: ClientName,
  rules: readonly string[] = [],
  keys: Readonly<Record<string, unknown>> = {},
  switches: readonly SettingsSwitch[] = [],
): ClientFileFormat {
  const own = (k: string) => k === "hooks" || Object.hasOwn(keys, k);
  const allows = takesAllowRules(client);
  return {
    ...(allows ? { extra: allowRules(rules) } : {}),
    layout: nestedLayout,
    fresh: (hooks) => ({ ...keys, hooks }),
    refuse(doc) {
      if (client !== "codex") return null;
      const extra = Object.keys(doc).find((k) => !CODEX_TOP_LEVEL.has(k));
      return extra === undefined
        ? null
        : `Codex rejects the whole file because of the top-level key "${extra}" (only "description" and "hooks" are allowed); move it out of the file`;
    },
    topLevel: (doc) => {
      const add = missingKeys(doc, keys);
      const off = switchesOff(doc, switches);
      return { ops: [...off.ops, ...add.ops], changes: [...off.changes, ...add.changes] };
    },
    isSkeleton: (doc) =>
      Object.keys(doc).every((k) => own(k) || (allows && k === "permissions")) &&
      (doc.hooks === undefined || isEmptyObject(doc.hooks)) &&
      (doc.permissions === undefined || isEmptyObject(doc.permissions)),
  };
}

export function isEmptyObject(v: unknown): boolean {
  return isObject(v) && Object.keys(v).length === 0;
}

/** `.claude/settings.local.json`: Tandem owns only allow rules there, never hooks; deinit deletes it emptied. */
export function localFormat(
  rules: readonly string[],
  switches: readonly SettingsSwitch[] = [],
): ClientFileFormat {
  return {
    layout: { ours: () => [], size: (group) => handlers(group).length },
    fresh: () => ({}),
    refuse: () => null,
    topLevel: (doc) => switchesOff(doc, switches),
    extra: allowRules(rules),
    isSkeleton: (doc) =>
      Object.keys(doc).every((k) => k === "permissions") &&
      (doc.permissions === undefined || isEmptyObject(doc.permissions)),
  };
}
