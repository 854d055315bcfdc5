import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { clientEnv, type ProcessResult, parseJsonLines, runProcess } from "./spawn.js";

export interface RunClaudeOptions {
  bin: string;
  /** Project directory; Claude reads `<cwd>/.claude/settings.json` from here. */
  cwd: string;
  prompt: string;
  /** The fake server's `url`. */
  baseUrl: string;
  /** Isolated HOME (fresh `~/.claude`); created if missing. */
  home: string;
  /** Extra variables; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** Fixes the session id (`x-claude-code-session-id`, hook `session_id`) so a script can key on it. */
  sessionId?: string;
  /**
   * Default `acceptEdits` plus an allow list, which works as root. `bypassPermissions` also works as
   * root because IS_SANDBOX=1 is set.
   */
  permissionMode?: "acceptEdits" | "bypassPermissions" | "default" | "dontAsk" | "plan";
  allowedTools?: string;
  extraArgs?: readonly string[];
  /** Runs Claude as this user (by `runuser`, when the test runs as root): the kernel jail needs one. */
  asUser?: string;
}

export interface ClaudeRun extends ProcessResult {
  /** The stream-json lines. */
  events: Record<string, unknown>[];
  /** `result` of the final `{"type":"result"}` event. */
  resultText: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** Runs `claude -p` once against a fake model server, offline and with an isolated HOME. */
export async function runClaude(opts: RunClaudeOptions): Promise<ClaudeRun> {
  mkdirSync(opts.home, { recursive: true });
  const args = [
    "-p",
    opts.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--permission-mode",
    opts.permissionMode ?? "acceptEdits",
    "--allowedTools",
    opts.allowedTools ?? "Bash NotebookEdit Write Edit",
    ...(opts.sessionId ? ["--session-id", opts.sessionId] : []),
    ...(opts.extraArgs ?? []),
  ];
  const env = clientEnv({
    HOME: opts.home,
    XDG_CONFIG_HOME: join(opts.home, ".config"),
    XDG_CACHE_HOME: join(opts.home, ".cache"),
    XDG_DATA_HOME: join(opts.home, ".local", "share"),
    XDG_STATE_HOME: join(opts.home, ".local", "state"),
    ANTHROPIC_BASE_URL: opts.baseUrl,
    ANTHROPIC_API_KEY: "fake",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    // Root may only use bypassPermissions inside a declared sandbox.
    IS_SANDBOX: "1",
    ...opts.env,
  });
  // runuser resets the environment's identity variables: `env` hands the whole of it over.
  const [bin, argv] = opts.asUser
    ? [
        "runuser",
        [
          "-u",
          opts.asUser,
          "--",
          "env",
          ...Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`])),
          opts.bin,
          ...args,
        ],
      ]
    : [opts.bin, args];
  const res = await runProcess(bin, argv, {
    cwd: opts.cwd,
    env,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const events = parseJsonLines(res.stdout);
  const result = [...events].reverse().find((e) => e.type === "result");
  return { ...res, events, resultText: typeof result?.result === "string" ? result.result : undefined };
}
