import { isAbsolute, resolve } from "node:path";
import { CLIENT_NAMES, type ClientName } from "../clients/index.js";
import { shellQuote } from "../core/shell/quote.js";
import { UsageError } from "../errors.js";

export { shellQuote };

/**
 * The file of the running bundle. The bundle is CommonJS, so `require.main` names it; under the
 * test runner (ESM source) `require` does not exist and argv[1] is the best we have.
 */
export function runningScript(): string | null {
  const main = typeof require === "undefined" ? undefined : require.main?.filename;
  const file = main ?? process.argv[1];
  if (!file) return null;
  return isAbsolute(file) ? file : resolve(file);
}

/**
 * `"<node>" "<bundle>"`: the exact Node and Tandem that ran `init`. Works on this machine only, so
 * init offers it as a `--command` to pass on purpose, never as its default (src/wiring/launcher.ts).
 */
export function pinnedLauncher(): string {
  const script = runningScript();
  if (!script) return "tandem";
  return `${shellQuote(process.execPath)} ${shellQuote(script)}`;
}

export function hookCommand(launcher: string, client: ClientName, cliEvent: string): string {
  return `${launcher} hook ${client} ${cliEvent}`;
}

export interface OurCommand {
  client: ClientName;
  event: string;
}

/**
 * A Tandem hook command ends in ` hook <client> <event>`, right after a word ending in `tandem` or
 * `tandem.cjs` (optionally closing a quote). The word must start at a boundary, and nothing may
 * follow the event, so `stop` never matches `stop-failure` and a foreign command that merely
 * mentions tandem is not ours.
 */
const OURS = new RegExp(
  `(?:^|[\\s/"'])tandem(?:\\.cjs)?["']?\\s+hook\\s+(${CLIENT_NAMES.join("|")})\\s+([a-z][a-z0-9-]*)\\s*$`,
);

export function parseOurCommand(command: unknown): OurCommand | null {
  if (typeof command !== "string") return null;
  const m = OURS.exec(command);
  return m ? { client: m[1] as ClientName, event: m[2]! } : null;
}

/** A launcher whose commands we would not recognise as ours would be added again on every run. */
export function checkLauncher(launcher: string): string {
  const trimmed = launcher.trim();
  if (!trimmed || !parseOurCommand(hookCommand(trimmed, CLIENT_NAMES[0], "stop"))) {
    throw new UsageError(
      `--command "${launcher}" must end with tandem or tandem.cjs (e.g. --command tandem or --command "npx tandem"), so Tandem can recognise its own hooks later.`,
    );
  }
  return trimmed;
}

/** npx runs packages from a cache that npm may clear; hooks pinned there would break later. */
export function launcherNote(launcher: string): string | null {
  if (!/[/\\]_npx[/\\]/.test(launcher)) return null;
  return 'Note: the hooks start Tandem from npx\'s cache, which npm may clear; re-run with --command "npx tandem" (or install Tandem and use --command tandem) to avoid that.';
}
