import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clientEnv, type ProcessResult, runProcess } from "./spawn.js";

export interface RunClineOptions {
  bin: string;
  /** The workspace; Cline runs `.clinerules/hooks/*` from here. */
  cwd: string;
  /** Must contain a space: a single word is read as a subcommand (docs/clients.md §14.5). */
  prompt: string;
  /** The fake server's `url` (ends in `/v1`). */
  baseUrl: string;
  /** Isolated HOME (fresh `~/.cline`); created if missing. */
  home: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** What `cline auth -p openai-compatible -k … -m … -b …` writes, without running it. */
export function writeClineHome(home: string, baseUrl: string): void {
  const dir = join(home, ".cline", "data", "settings");
  mkdirSync(dir, { recursive: true });
  const settings = { provider: "openai-compatible", apiKey: "fake", model: "fake-model", baseUrl };
  const providers = {
    version: 1,
    lastUsedProvider: "openai-compatible",
    modes: {},
    providers: {
      "openai-compatible": { settings, updatedAt: new Date(0).toISOString(), tokenSource: "manual" },
    },
  };
  writeFileSync(join(dir, "providers.json"), `${JSON.stringify(providers, null, 2)}\n`);
}

/**
 * Environment of an offline run. `CLINE_SESSION_BACKEND_MODE=local` keeps the agent in the `cline`
 * process: by default the first run leaves a detached hub daemon behind, which a test must not.
 */
export function clineEnv(home: string, env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return clientEnv({
    HOME: home,
    CLINE_SESSION_BACKEND_MODE: "local",
    CLINE_NO_AUTO_UPDATE: "1",
    // Cline gives its plugin sandbox 4 s to start, then runs without plugins: too little on a busy machine.
    CLINE_PLUGIN_IMPORT_TIMEOUT_MS: "60000",
    ...env,
  });
}

/** Runs `cline "<prompt>"` once (act mode, tools auto-approved) against the fake model. */
export async function runCline(opts: RunClineOptions): Promise<ProcessResult> {
  writeClineHome(opts.home, opts.baseUrl);
  return runProcess(opts.bin, ["--auto-approve", "true", "--", opts.prompt], {
    cwd: opts.cwd,
    env: clineEnv(opts.home, opts.env),
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
}
