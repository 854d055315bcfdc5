import type { ClientName } from "../clients/index.js";
import type { ClientSpec } from "../clients/types.js";
import type { ClientFileFormat } from "./client-file.js";
import { hookCommand, parseOurCommand } from "./hook-command.js";
import { isObject, type Layout, type WantedHook } from "./reconcile.js";
import { versionOneFormat } from "./version-one-file.js";

/** Cursor's flat `.cursor/hooks.json`: `{version: 1, hooks: {event: [{command, matcher?, loop_limit?}]}}` (docs/clients.md §3.1). */

/**
 * Cursor's stop cannot block; a followup message opens a new turn instead, and `loop_limit` caps how
 * often in a row that may happen, so a ritual that keeps failing cannot loop forever.
 */
const LOOP_LIMITS: Readonly<Record<string, number>> = { stop: 3 };

export const flatLayout: Layout = {
  ours: (entry) => (isObject(entry) && parseOurCommand(entry.command) ? [[]] : []),
  size: () => 1,
};

export function flatWanted(client: ClientSpec<ClientName>, launcher: string): WantedHook[] {
  return client.events.map((e) => ({
    event: e.native,
    unit: {
      command: hookCommand(launcher, client.name, e.cli),
      ...(e.matcher === undefined ? {} : { matcher: e.matcher }),
      ...(e.timeout === undefined ? {} : { timeout: e.timeout }),
      ...(LOOP_LIMITS[e.native] === undefined ? {} : { loop_limit: LOOP_LIMITS[e.native] }),
    },
  }));
}

export const flatFormat: ClientFileFormat = versionOneFormat(flatLayout);
