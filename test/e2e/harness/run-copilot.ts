import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { CLIENTS_DIR } from "./install-clients.js";
import { clientEnv, type ProcessResult, parseJsonLines, runProcess } from "./spawn.js";

export interface RunCopilotOptions {
  bin: string;
  /** Project directory; Copilot loads `<repo>/.github/hooks/*.json` from here when trusted. */
  cwd: string;
  prompt: string;
  /** The fake server's `url` (ends in `/v1`). */
  baseUrl: string;
  /** Isolated HOME (fresh `~/.copilot`); created if missing. */
  home: string;
  /** Decides the tool set: gpt-4.1 gets create/edit, gpt-5 models the freeform apply_patch. */
  model?: string;
  /** `--session-id`: resume that session or start a new one under this UUID. */
  sessionId?: string;
  /** Extra variables; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export interface CopilotRun extends ProcessResult {
  /** The `--output-format json` lines. */
  events: Record<string, unknown>[];
}

const DEFAULT_TIMEOUT_MS = 90_000;

/**
 * The binary unpacks ~200 MB into `$XDG_CACHE_HOME/copilot/pkg` on first start: one shared cache
 * beside the install keeps that to the first run of the first test.
 */
const UNPACK_CACHE = join(CLIENTS_DIR, "copilot-unpacked");

/** Environment of an offline BYOK run: no GitHub auth, telemetry or updates (docs/clients.md §6). */
export function copilotEnv(opts: Pick<RunCopilotOptions, "home" | "baseUrl" | "model" | "env">) {
  return clientEnv({
    HOME: opts.home,
    XDG_CACHE_HOME: UNPACK_CACHE,
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_BASE_URL: opts.baseUrl,
    COPILOT_PROVIDER_API_KEY: "fake",
    COPILOT_MODEL: opts.model ?? "gpt-4.1",
    ...opts.env,
  });
}

/**
 * Runs `copilot -p` once against the fake model. `--allow-all` approves every tool; repository
 * hooks load in prompt mode only in a trusted folder, which `--trust-folder` grants this run alone.
 * `sessionId` (`--session-id`) resumes that session, or starts a new one under that id.
 */
export async function runCopilot(opts: RunCopilotOptions): Promise<CopilotRun> {
  mkdirSync(opts.home, { recursive: true });
  // --trust-folder is for new sessions only; exactly "true" in COPILOT_ALLOW_ALL trusts a resumed one.
  const resume = opts.sessionId !== undefined;
  const args = [
    "--allow-all",
    ...(resume ? [] : ["--trust-folder"]),
    "--no-auto-update",
    "--no-ask-user",
    "--output-format",
    "json",
    ...(opts.sessionId ? ["--session-id", opts.sessionId] : []),
    `--prompt=${opts.prompt}`,
  ];
  const res = await runProcess(opts.bin, args, {
    cwd: opts.cwd,
    env: copilotEnv({ ...opts, env: { ...(resume ? { COPILOT_ALLOW_ALL: "true" } : {}), ...opts.env } }),
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  return { ...res, events: parseJsonLines(res.stdout) };
}
