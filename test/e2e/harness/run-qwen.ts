import { mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { clientEnv, type ProcessResult, runProcess } from "./spawn.js";

/** A model id the fake answers for; Qwen offers its full tool set to any OpenAI model. */
export const QWEN_MODEL = "gpt-4.1";

/**
 * The `qwen` command as npm links it: `node_modules/.bin/qwen`, a symlink to `cli-entry.js`, which
 * relaunches the bundle with `--expose-gc`. Run through this name, the outer process has `qwen` in
 * its command line as it does for a person, so hooks find their agent process by name
 * (docs/clients.md §15.4). `entry` is the `cli.js` ensureQwenCode returns.
 */
export function qwenCommand(entry: string): string {
  return join(dirname(entry), "..", "..", ".bin", "qwen");
}

/** Puts `qwen` on a PATH directory (for `tandem sub run --client qwen-code`, which starts `qwen`). */
export function linkQwen(entry: string, binDir: string): void {
  symlinkSync(qwenCommand(entry), join(binDir, "qwen"));
}

/**
 * The variables of an offline run (docs/clients.md §15.5): an API key, a base URL and a model
 * together select Qwen's OpenAI auth with no sign-in and no settings file; `home` is a fresh HOME,
 * so no person's `~/.qwen` settings or hooks take part.
 */
export function qwenEnv(home: string, baseUrl: string, extra: Record<string, string | undefined> = {}) {
  mkdirSync(home, { recursive: true });
  return clientEnv({ HOME: home, ...qwenOffline(baseUrl), ...extra });
}

/** What points Qwen Code at the fake, headless or in a terminal (test/tui/qwen-tui.test.ts). */
export function qwenOffline(baseUrl: string): Record<string, string> {
  return {
    OPENAI_API_KEY: "fake",
    OPENAI_BASE_URL: baseUrl,
    OPENAI_MODEL: QWEN_MODEL,
    // Like Gemini CLI, Qwen Code starts itself again with a bigger heap unless told not to: a
    // Node start and a bundle load (~2 s of CPU a file) that no hook sees.
    QWEN_CODE_NO_RELAUNCH: "true",
  };
}

export interface RunQwenOptions {
  /** `cli.js` of the pinned install (ensureQwenCode). */
  entry: string;
  cwd: string;
  prompt: string;
  /** The fake server's `url` (ends in `/v1`). */
  baseUrl: string;
  home: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/**
 * Runs `qwen --auth-type openai --yolo <prompt>` once, headless (stdin from /dev/null): `--yolo`
 * approves its edits and shell commands, so only the hooks can stop a tool.
 */
export function runQwen(opts: RunQwenOptions): Promise<ProcessResult> {
  const args = [qwenCommand(opts.entry), "--auth-type", "openai", "--yolo", opts.prompt];
  return runProcess(process.execPath, args, {
    cwd: opts.cwd,
    env: qwenEnv(opts.home, opts.baseUrl, opts.env),
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
}
