import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { CopilotFake } from "./copilot-fake.js";
import { agentRequestsSince, startOpencode, titleRequestsSince } from "./opencode-start.js";
import { clientEnv, killGroup, type ProcessResult, parseJsonLines, runProcess } from "./spawn.js";

/** The model opencode is pointed at: a provider of the project's config, served by the fake. */
export const OPENCODE_MODEL = "fake/fake-model";

export interface RunOpencodeOptions {
  bin: string;
  cwd: string;
  prompt: string;
  /** The fake server's `url` (ends in `/v1`). */
  baseUrl: string;
  /** Isolated HOME; its XDG folders hold opencode's config, data and cache. */
  home: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /**
   * The fake the run talks to: given, a start that makes no agent request within the bound is
   * stopped and run again, and three in a row fail as opencode's freeze (opencode-start.ts).
   */
  fake?: CopilotFake;
}

export interface OpencodeRun extends ProcessResult {
  /** The `--format json` lines (`tool_use`, `text`, `step_finish`, …). */
  events: Record<string, unknown>[];
}

/**
 * opencode's provider config (docs/clients.md §16.5): an OpenAI-compatible provider whose base URL is
 * the fake, given as `OPENCODE_CONFIG_CONTENT` so the repository's own files stay the user's.
 */
export function opencodeConfig(baseUrl: string): string {
  return JSON.stringify({
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: baseUrl, apiKey: "fake" },
        models: { "fake-model": { name: "Fake model", tool_call: true } },
      },
    },
    model: OPENCODE_MODEL,
    autoupdate: false,
    share: "disabled",
  });
}

/**
 * Environment of an offline run: no models.dev fetch, no update check, and npm offline, so the
 * background install of `@opencode-ai/plugin` into `.opencode/` fails at once instead of
 * downloading (a plugin without imports needs none).
 */
export function opencodeEnv(home: string, baseUrl: string, extra: Record<string, string | undefined> = {}) {
  for (const d of [".config", ".local/share", ".cache", ".local/state"])
    mkdirSync(join(home, d), { recursive: true });
  return clientEnv({
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_CONFIG_CONTENT: opencodeConfig(baseUrl),
    npm_config_offline: "true",
    ...extra,
  });
}

/** `opencode run --format json <prompt>` against the fake; `--auto` approves what config does not deny. */
export async function runOpencode(opts: RunOpencodeOptions): Promise<OpencodeRun> {
  const fake = opts.fake;
  if (!fake) return runOnce(opts, () => {});
  const done = await startOpencode(
    "`opencode run`",
    () => {
      const from = fake.requests.length;
      let pid: number | undefined;
      let exited = false;
      const run = runOnce(opts, (p) => {
        pid = p;
      }).finally(() => {
        exited = true;
      });
      return {
        value: run,
        agentRequests: () => agentRequestsSince(fake.requests, from),
        exited: () => exited,
        evidence: () => `${titleRequestsSince(fake.requests, from)} title request(s)`,
        stop: async () => {
          killGroup(pid);
          await run;
        },
      };
    },
    {
      onFrozen: (_n, why) => console.warn(`opencode run froze at start-up (${why}); retrying`),
    },
  );
  return done;
}

function runOnce(opts: RunOpencodeOptions, onSpawn: (pid: number) => void): Promise<OpencodeRun> {
  const args = ["run", "--auto", "--format", "json", "--", opts.prompt];
  return runProcess(opts.bin, args, {
    cwd: opts.cwd,
    // opencode takes its project from $PWD before its real directory (docs/clients.md §16.4).
    env: opencodeEnv(opts.home, opts.baseUrl, { ...opts.env, PWD: opts.cwd }),
    timeoutMs: opts.timeoutMs ?? 240_000,
    onSpawn,
  }).then((res) => ({ ...res, events: parseJsonLines(res.stdout) }));
}
