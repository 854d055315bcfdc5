import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CodexAppServer,
  type CodexHook,
  type HooksListEntry,
  listHooks,
  needsTrust,
  trustHooks,
} from "../../../src/clients/codex/app-server.js";
import { clientEnv, type ProcessResult, parseJsonLines, runProcess } from "./spawn.js";

export interface CodexConfigOptions {
  codexHome: string;
  /** The fake server's `url` (ends in `/v1`). */
  baseUrl: string;
  /** Project to mark trusted; Codex ignores an untrusted project's `.codex/` (hooks included). */
  cwd: string;
  /** A slug with bundled metadata: with an unknown one Codex does not offer `apply_patch`. */
  model?: string;
}

export interface RunCodexOptions extends CodexConfigOptions {
  bin: string;
  prompt: string;
  /** Extra variables; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** `--dangerously-bypass-hook-trust`: run hooks that were never trusted. */
  bypassHookTrust?: boolean;
  extraArgs?: readonly string[];
  /** Starts Codex another way (as another user, under `tandem run codex`): the program and its arguments. */
  wrap?: (bin: string, args: readonly string[], env: NodeJS.ProcessEnv) => [string, string[]];
}

export interface CodexRun extends ProcessResult {
  /** The `--json` lines. */
  events: Record<string, unknown>[];
  /** `-o` file: the last agent message of the turn. */
  lastMessage: string | undefined;
  /** From `thread.started`; equals the hooks' `session_id` and the `session-id` request header. */
  threadId: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Writes the harness settings into `$CODEX_HOME/config.toml`. Tables we do not own (the
 * `[hooks.state."…"]` ones trust writes) are kept, so trusting first and running afterwards both
 * work; Codex itself inserts new tables wherever it likes, so no comment markers are relied upon.
 */
export function writeCodexConfig(opts: CodexConfigOptions): string {
  mkdirSync(opts.codexHome, { recursive: true });
  const file = join(opts.codexHome, "config.toml");
  const provider = "[model_providers.mock]";
  const project = `[projects.${JSON.stringify(opts.cwd)}]`;
  const ours = [
    `model = ${JSON.stringify(opts.model ?? "gpt-5.5")}`,
    'model_provider = "mock"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "check_for_update_on_startup = false",
    "",
    provider,
    'name = "Mock"',
    `base_url = ${JSON.stringify(opts.baseUrl)}`,
    'wire_api = "responses"',
    'env_key = "MOCK_API_KEY"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    project,
    'trust_level = "trusted"',
    "",
  ];
  const old = existsSync(file) ? readFileSync(file, "utf8") : "";
  const kept = tables(old).filter((t) => t.header !== provider && t.header !== project);
  writeFileSync(file, [...ours, ...kept.flatMap((t) => t.lines)].join("\n"));
  return file;
}

/**
 * Splits TOML text into its tables by header line, dropping the top-level keys (ours). Good enough
 * for the files the harness and Codex write: no multi-line strings start a line with `[`.
 */
function tables(text: string): { header: string; lines: string[] }[] {
  const result: { header: string; lines: string[] }[] = [];
  for (const line of text.split("\n")) {
    if (/^\s*\[/.test(line)) result.push({ header: line.trim(), lines: [line] });
    else result[result.length - 1]?.lines.push(line);
  }
  return result;
}

function codexEnv(codexHome: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return clientEnv({ CODEX_HOME: codexHome, MOCK_API_KEY: "fake", ...extra });
}

/** Runs `codex exec --json` once against a fake Responses server, stdin from /dev/null. */
export async function runCodex(opts: RunCodexOptions): Promise<CodexRun> {
  writeCodexConfig(opts);
  const lastFile = join(opts.codexHome, `last-message-${randomUUID()}.txt`);
  const args = [
    "exec",
    "--json",
    "-o",
    lastFile,
    ...(opts.bypassHookTrust ? ["--dangerously-bypass-hook-trust"] : []),
    ...(opts.extraArgs ?? []),
    // Guard against a prompt that starts with "-".
    "--",
    opts.prompt,
  ];
  const env = codexEnv(opts.codexHome, opts.env);
  const [bin, argv] = opts.wrap ? opts.wrap(opts.bin, args, env) : [opts.bin, args];
  const res = await runProcess(bin, argv, {
    cwd: opts.cwd,
    env,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const lastMessage = existsSync(lastFile) ? readFileSync(lastFile, "utf8") : undefined;
  rmSync(lastFile, { force: true });
  const events = parseJsonLines(res.stdout);
  const started = events.find((e) => e.type === "thread.started");
  const threadId = typeof started?.thread_id === "string" ? started.thread_id : undefined;
  return { ...res, events, lastMessage, threadId };
}

export interface CodexHooksOptions {
  bin: string;
  codexHome: string;
  /** Project whose `.codex/hooks.json` to inspect; must be trusted in config.toml (see writeCodexConfig). */
  cwd: string;
  env?: Record<string, string | undefined>;
}

async function withAppServer<T>(opts: CodexHooksOptions, fn: (s: CodexAppServer) => Promise<T>): Promise<T> {
  const server = await CodexAppServer.start({ bin: opts.bin, env: codexEnv(opts.codexHome, opts.env) });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** Every hook Codex sees for `cwd` (user and project layers), with its trust status and hash. */
export function listCodexHooks(opts: CodexHooksOptions): Promise<CodexHook[]> {
  return withAppServer(opts, async (s) => flatten(await listHooks(s, [opts.cwd])));
}

/** Trusts every hook that needs it, as a user would in `/hooks`; returns the list afterwards. */
export function trustCodexHooks(opts: CodexHooksOptions): Promise<CodexHook[]> {
  return withAppServer(opts, async (s) => {
    await trustHooks(s, flatten(await listHooks(s, [opts.cwd])).filter(needsTrust));
    return flatten(await listHooks(s, [opts.cwd]));
  });
}

function flatten(entries: HooksListEntry[]): CodexHook[] {
  const errors = entries.flatMap((e) => e.errors);
  if (errors.length > 0) {
    throw new Error(
      `codex hooks/list reported errors: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
    );
  }
  return entries.flatMap((e) => e.hooks);
}
