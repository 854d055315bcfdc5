import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commandLine } from "../../src/sessions/proc.js";
import type { Project } from "../e2e/support.js";
import { agentShell } from "../helpers/agent-shell.js";
import { hook } from "../helpers/hooks.js";
import { cli } from "../helpers/in-process-cli.js";
import { until } from "./driver.js";

export interface SessionInfo {
  name: string;
  client: string;
  nativeId: string;
  live: boolean;
  ended: boolean;
  task: string | null;
}

/** `tandem sessions --all --json`, answered in this process: the scenes poll it. */
export async function sessions(p: Project): Promise<SessionInfo[]> {
  const out = await cli(["sessions", "--all", "--json"], { cwd: p.repo });
  return JSON.parse(out.stdout) as SessionInfo[];
}

/** A live peer (a stand-in agent process) that wrote `file` and so holds it. */
/** A peer agent (session PEER) holds `file`, dirty; returns its agent, whose shell can run commands. */
export function peerHolds(p: Project, file: string): { CLAUDE_PID: string } {
  const env = agentShell();
  const payload = {
    session_id: "PEER",
    cwd: p.repo,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: join(p.repo, file), content: "peer\n" },
    tool_use_id: "toolu_peer",
  };
  hook("claude-code", "pre-tool-use", payload, { cwd: p.repo, env });
  writeFileSync(join(p.repo, file), "peer\n");
  hook(
    "claude-code",
    "post-tool-use",
    { ...payload, hook_event_name: "PostToolUse", tool_response: {} },
    {
      cwd: p.repo,
      env,
    },
  );
  return env;
}

/** Variables a person's terminal would have, plus the project's PATH and git identity. */
export function terminalEnv(p: Project, home: string): Record<string, string> {
  return { ...p.env, HOME: home, TERM: "xterm-256color", LANG: "C.UTF-8" };
}

/** Claude's first-run dialogs (theme, onboarding, API key, workspace trust), answered in advance. */
export function seedClaudeHome(home: string, repo: string): void {
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    customApiKeyResponses: { approved: ["fake"], rejected: [] },
    projects: { [repo]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(join(home, ".claude.json"), JSON.stringify(state));
}

/** Codex's first-run notices (model migration, screen reader probe), answered in advance. */
export const CODEX_NOTICES = [
  "[notice.model_migrations]",
  '"gpt-5.5" = "gpt-6-sol"',
  "",
  "[tui]",
  "screen_reader_detection_done = true",
  "",
  "[tui.model_availability_nux]",
  '"gpt-6.1-sol" = 1',
  "",
].join("\n");

/**
 * Stops the app-server daemon (and its updater) a Codex UI started for this CODEX_HOME: it outlives
 * the UI by design. Only processes running from inside `codexHome` are touched.
 */
export async function stopCodexDaemon(codexHome: string): Promise<void> {
  const dir = join(codexHome, "app-server-daemon");
  if (!existsSync(dir)) return;
  const ours = (pid: number) => commandLine(pid)?.[0]?.startsWith(codexHome) === true;
  const pids = readdirSync(dir)
    .filter((n) => n.endsWith(".pid"))
    .map((f) => {
      try {
        return (JSON.parse(readFileSync(join(dir, f), "utf8")) as { pid?: number }).pid ?? 0;
      } catch {
        return 0;
      }
    })
    .filter((pid) => pid > 0 && ours(pid));
  for (const pid of pids) process.kill(pid, "SIGKILL");
  await until("the Codex daemon exited", () => !pids.some(ours), 10_000);
}

/** The daemon's pid, if one runs for this CODEX_HOME. */
export function codexDaemonPid(codexHome: string): number | null {
  try {
    const pid = (
      JSON.parse(readFileSync(join(codexHome, "app-server-daemon", "daemon.pid"), "utf8")) as { pid: number }
    ).pid;
    return commandLine(pid) ? pid : null;
  } catch {
    return null;
  }
}
