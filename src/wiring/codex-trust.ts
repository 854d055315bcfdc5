import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import {
  CodexAppServer,
  type CodexHook,
  type HooksListEntry,
  listHooks,
} from "../clients/codex/app-server.js";
import { CLIENTS } from "../clients/index.js";
import { errorMessage } from "../errors.js";
import { parseOurCommand } from "./hook-command.js";

/**
 * Codex skips untrusted hooks silently (docs/clients.md §2.1), so after wiring Codex, init asks Codex
 * itself (`hooks/list` over `codex app-server`) which of our hooks still need review. It only
 * reports: trusting is the user's decision, made in Codex's `/hooks`.
 */

type Env = Readonly<Record<string, string | undefined>>;

export interface TrustDeps {
  /** The `codex` binary to ask, or null when there is none. */
  findCodex(env: Env): string | null;
  listHooks(bin: string, root: string, env: Env, timeoutMs: number): Promise<HooksListEntry[]>;
}

export type TrustReport =
  | { state: "no-codex" }
  | { state: "failed"; message: string }
  /** Codex lists none of our hooks: it loads `.codex/` only for trusted projects. */
  | { state: "not-loaded" }
  | { state: "listed"; total: number; pending: { event: string; status: string }[] };

export function findOnPath(name: string, env: Env): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // Not here.
    }
  }
  return null;
}

async function listViaAppServer(
  bin: string,
  root: string,
  env: Env,
  timeoutMs: number,
): Promise<HooksListEntry[]> {
  // Each request is bounded; close() kills a server that does not exit on its own.
  const server = await CodexAppServer.start({ bin, env: env as NodeJS.ProcessEnv, timeoutMs: timeoutMs / 2 });
  try {
    return await listHooks(server, [root]);
  } finally {
    await server.close();
  }
}

export const defaultTrustDeps: TrustDeps = {
  findCodex: (env) => findOnPath("codex", env),
  listHooks: listViaAppServer,
};

/** init must never hang on a Codex that does not answer. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function isOurs(hook: CodexHook, file: string): boolean {
  const fromFile = hook.sourcePath === file || hook.key.startsWith(`${file}:`);
  return fromFile && parseOurCommand(hook.command)?.client === "codex";
}

export async function checkCodexTrust(
  root: string,
  env: Env,
  deps: TrustDeps = defaultTrustDeps,
  timeoutMs = 20_000,
): Promise<TrustReport> {
  const bin = deps.findCodex(env);
  if (!bin) return { state: "no-codex" };
  const file = join(root, CLIENTS.codex.settingsFile);
  let entries: HooksListEntry[];
  try {
    entries = await withDeadline(deps.listHooks(bin, root, env, timeoutMs), timeoutMs);
  } catch (err) {
    return { state: "failed", message: errorMessage(err).split("\n")[0]! };
  }
  const problem = entries.flatMap((e) => e.errors).find((e) => e.path === file);
  if (problem) return { state: "failed", message: `Codex cannot load ${file}: ${problem.message}` };
  const ours = entries.flatMap((e) => e.hooks).filter((h) => isOurs(h, file));
  if (ours.length === 0) return { state: "not-loaded" };
  // Named as in hooks.json (Codex lists `preToolUse`), in the order Tandem wires them.
  const events = CLIENTS.codex.events;
  const rank = (h: CodexHook) => events.findIndex((e) => e.cli === parseOurCommand(h.command)?.event);
  const pending = ours
    .filter((h) => h.trustStatus === "untrusted" || h.trustStatus === "modified")
    .sort((a, b) => rank(a) - rank(b))
    .map((h) => ({ event: events[rank(h)]?.native ?? h.eventName, status: h.trustStatus }));
  return { state: "listed", total: ours.length, pending };
}

const HOW =
  "open `codex` in the project and approve them with /hooks (a scripted run can pass --dangerously-bypass-hook-trust instead)";

/** One line for the init summary. */
export function describeTrust(report: TrustReport): string {
  switch (report.state) {
    case "no-codex":
      return "Codex: `codex` is not on PATH, so hook trust could not be checked; once Codex is installed, open it in the project and approve Tandem's hooks with /hooks.";
    case "failed":
      return `Codex: could not check hook trust (${report.message}); ${HOW}.`;
    case "not-loaded":
      return "Codex: does not load this project's .codex/hooks.json yet (it only does for trusted projects); open `codex` in the project, trust it, then approve Tandem's hooks with /hooks.";
    case "listed": {
      if (report.pending.length === 0) return `Codex: all ${report.total} Tandem hooks are trusted.`;
      const list = report.pending.map((p) => `${p.event} (${p.status})`).join(", ");
      return `Codex: ${report.pending.length} of ${report.total} Tandem hooks need review and are skipped until trusted: ${list}; ${HOW}.`;
    }
  }
}
