import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clientEnv, type ProcessResult, runProcess } from "./spawn.js";

/** A model id with a known tool set: without `-m` Gemini first asks a routing model which to use. */
export const GEMINI_MODEL = "gemini-2.5-flash";

/**
 * A fresh Gemini home (docs/clients.md §13.5): API-key auth (a custom base URL alone selects the
 * `gateway` auth, which headless mode refuses with exit 41), no usage statistics or update checks,
 * and `trusted` folders in `trustedFolders.json`, as a person trusting them would leave it. Without
 * trust Gemini runs no project hooks at all.
 */
export function writeGeminiHome(home: string, trusted: readonly string[]): void {
  const dir = join(home, ".gemini");
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
  writeFileSync(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  const rules = Object.fromEntries(trusted.map((t) => [t, "TRUST_FOLDER"]));
  writeFileSync(join(dir, "trustedFolders.json"), `${JSON.stringify(rules, null, 2)}\n`);
}

/** The variables that point Gemini at the fake server, with `home` as its home. */
export function geminiEnv(home: string, baseUrl: string, extra: Record<string, string | undefined> = {}) {
  return clientEnv({
    HOME: home,
    GEMINI_API_KEY: "fake",
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    // Gemini restarts itself with a bigger heap unless told not to: one process is easier to follow.
    GEMINI_CLI_NO_RELAUNCH: "true",
    ...extra,
  });
}

export interface RunGeminiOptions {
  /** `bundle/gemini.js` of the pinned install (run with this Node). */
  entry: string;
  cwd: string;
  prompt: string;
  baseUrl: string;
  /** Prepared with writeGeminiHome. */
  home: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** Runs `gemini --yolo -m <model> --prompt=<prompt>` once, headless, stdin from /dev/null. */
export function runGemini(opts: RunGeminiOptions): Promise<ProcessResult> {
  const args = [opts.entry, "--yolo", "-m", GEMINI_MODEL, `--prompt=${opts.prompt}`];
  return runProcess(process.execPath, args, {
    cwd: opts.cwd,
    env: geminiEnv(opts.home, opts.baseUrl, opts.env),
    timeoutMs: opts.timeoutMs ?? 90_000,
  });
}
