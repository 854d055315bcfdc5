import type { ClientName } from "../clients/index.js";
import type { ClientSpec } from "../clients/types.js";
import type { ClientFileFormat } from "./client-file.js";
import { hookCommand, parseOurCommand } from "./hook-command.js";
import { isObject, type Layout, type WantedHook } from "./reconcile.js";
import { versionOneFormat } from "./version-one-file.js";

/**
 * Copilot CLI's native hook file (docs/decisions/0017-copilot-cli.md): `.github/hooks/tandem.json`,
 * `{version: 1, hooks: {event: [{type: "command", bash, timeoutSec}]}}`. Copilot loads every
 * `.github/hooks/*.json`, so foreign hooks usually live in files of their own; any a person adds
 * to this one are kept like in the other clients' files.
 */
export const copilotLayout: Layout = {
  ours: (entry) => (isObject(entry) && parseOurCommand(entry.bash) ? [[]] : []),
  size: () => 1,
};

export function copilotWanted(client: ClientSpec<ClientName>, launcher: string): WantedHook[] {
  return client.events.map((e) => ({
    event: e.native,
    unit: {
      type: "command",
      bash: hookCommand(launcher, client.name, e.cli),
      ...(e.timeout === undefined ? {} : { timeoutSec: e.timeout }),
    },
  }));
}

export const copilotFormat: ClientFileFormat = versionOneFormat(copilotLayout);
