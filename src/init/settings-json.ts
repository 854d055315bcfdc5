import type { ClientName, ClientSpec } from "../clients/types.js";
import type { ClientFileFormat } from "./client-file.js";
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
export function nestedWanted(client: ClientSpec, launcher: string): WantedHook[] {
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
        },
      ],
    },
  }));
}

export function nestedFormat(client: ClientName): ClientFileFormat {
  return {
    layout: nestedLayout,
    fresh: (hooks) => ({ hooks }),
    refuse(doc) {
      if (client !== "codex") return null;
      const extra = Object.keys(doc).find((k) => !CODEX_TOP_LEVEL.has(k));
      return extra === undefined
        ? null
        : `Codex rejects the whole file because of the top-level key "${extra}" (only "description" and "hooks" are allowed); move it out of the file`;
    },
    topLevel: () => ({ ops: [], changes: [] }),
    isSkeleton: (doc) =>
      Object.keys(doc).every((k) => k === "hooks") && (doc.hooks === undefined || isEmptyObject(doc.hooks)),
  };
}

export function isEmptyObject(v: unknown): boolean {
  return isObject(v) && Object.keys(v).length === 0;
}
