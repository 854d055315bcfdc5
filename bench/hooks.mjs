// Hook latency cases for `npm run bench`: pre-tool-use for a one-file Write and
// a 100-file apply_patch, Copilot CLI's create, ungated tool and agentStop, stop, Gemini CLI's
// BeforeTool for a write_file, against `node -e 0`.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compare, table, verdicts } from "./lib.mjs";

function repoFixture() {
  const work = mkdtempSync(join(tmpdir(), "tandem-bench-hooks-"));
  const repo = join(work, "repo");
  mkdirSync(repo);
  execFileSync("git", ["init", "-q", "-b", "main", repo]);
  execFileSync("git", [
    "-C",
    repo,
    "-c",
    "user.name=b",
    "-c",
    "user.email=b@b",
    "commit",
    "-q",
    "--allow-empty",
    "-m",
    "i",
  ]);
  return { work, repo };
}

const write = (repo, i) => ({
  session_id: `bench-${i % 4}`,
  cwd: repo,
  hook_event_name: "PreToolUse",
  tool_name: "Write",
  tool_input: { file_path: join(repo, `w${i % 4}.txt`), content: "x" },
  tool_use_id: `t${i}`,
});

const patch100 = (repo) => ({
  session_id: "bench-patch",
  turn_id: "t",
  cwd: repo,
  hook_event_name: "PreToolUse",
  model: "gpt-5.5",
  permission_mode: "default",
  transcript_path: null,
  tool_name: "apply_patch",
  tool_input: {
    command: `*** Begin Patch\n${Array.from({ length: 100 }, (_, i) => `*** Add File: p/f${i}.txt\n+x`).join("\n")}\n*** End Patch\n`,
  },
  tool_use_id: "c1",
});

/** Copilot CLI's native payloads: `create` under its own argument names, and a tool that writes nothing. */
const copilot = (repo, i, toolName = "create") => ({
  sessionId: `bench-copilot-${i % 2}`,
  timestamp: 1796099875138,
  cwd: repo,
  toolName,
  toolArgs: toolName === "create" ? { path: join(repo, `c${i % 2}.txt`), file_text: "x" } : { path: repo },
});

/** Gemini CLI's recorded BeforeTool shape (test/fixtures/gemini-cli/BeforeTool-0.json). */
const geminiWrite = (repo) => ({
  session_id: "bench-gemini",
  transcript_path: "/tmp/bench-gemini.jsonl",
  cwd: repo,
  hook_event_name: "BeforeTool",
  timestamp: "2026-12-01T04:36:56.121Z",
  tool_name: "write_file",
  tool_input: { file_path: join(repo, "g.txt"), content: "x" },
});

export function benchHooks(bin, rounds) {
  const { work, repo } = repoFixture();
  const env = { ...process.env, XDG_CONFIG_HOME: join(work, "xdg") };
  const node = (name, args, extra = {}) => ({ name, cmd: process.execPath, args, cwd: repo, env, ...extra });
  // Warm the store so every measured call finds it migrated, as in real use.
  execFileSync(process.execPath, [bin, "hook", "claude-code", "pre-tool-use"], {
    cwd: repo,
    env,
    input: JSON.stringify(write(repo, 0)),
  });
  const result = compare(
    node("node -e 0", ["-e", "0"]),
    [
      {
        ...node("pre-tool-use, 1-file Write", [bin, "hook", "claude-code", "pre-tool-use"], {
          input: JSON.stringify(write(repo, 1)),
        }),
        target: 1.3,
      },
      {
        ...node("pre-tool-use, 100-file apply_patch", [bin, "hook", "codex", "pre-tool-use"], {
          input: JSON.stringify(patch100(repo)),
        }),
        target: 1.5,
      },
      {
        ...node("copilot-cli pre-tool-use, 1-file create", [bin, "hook", "copilot-cli", "pre-tool-use"], {
          input: JSON.stringify(copilot(repo, 1)),
        }),
        target: 1.3,
      },
      node("copilot-cli pre-tool-use, view (not gated)", [bin, "hook", "copilot-cli", "pre-tool-use"], {
        input: JSON.stringify(copilot(repo, 1, "view")),
      }),
      node("copilot-cli agent-stop", [bin, "hook", "copilot-cli", "agent-stop"], {
        input: JSON.stringify({
          sessionId: "bench-copilot-1",
          timestamp: 1796099875766,
          cwd: repo,
          stopReason: "end_turn",
          stop_hook_active: false,
        }),
      }),
      node("stop", [bin, "hook", "claude-code", "stop"], {
        input: JSON.stringify({
          session_id: "bench-1",
          cwd: repo,
          hook_event_name: "Stop",
          stop_hook_active: false,
          last_assistant_message: "ok",
        }),
        okCodes: [0, 2],
      }),
      {
        ...node("gemini-cli before-tool, 1-file write_file", [bin, "hook", "gemini-cli", "before-tool"], {
          input: JSON.stringify(geminiWrite(repo)),
        }),
        target: 1.3,
      },
    ],
    rounds,
  );
  rmSync(work, { recursive: true, force: true });
  return [
    "## Hooks",
    "",
    "Same session and payload every round (the claim is already held after the first call, as for an agent editing one file repeatedly).",
    "",
    table(result),
    "",
    verdicts(result),
    "",
  ].join("\n");
}
