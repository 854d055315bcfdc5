import { parseStatus } from "../core/git/status.js";
import { statusArgs } from "../git/status.js";
import { claude, codex } from "./payloads.js";
import type { Run, World } from "./world.js";

export interface Outcome {
  ok: boolean;
  /** What happened, in a line or a few: shown under the step. */
  detail: string;
}

export interface Step {
  title: string;
  run(w: World, s: DemoState): Outcome;
}

export interface DemoState {
  subagent: string | null;
}

const A = "demo-claude-session";
const B = "demo-codex-session";
const asA = { CLAUDE_CODE_SESSION_ID: A };
const PATCH =
  "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-export const answer = 41;\n+export const answer = 43;\n*** Add File: src/notes.md\n+codex was here\n*** End Patch\n";

function denial(r: Run): string | null {
  try {
    const out = JSON.parse(r.stdout) as {
      hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
    };
    return out.hookSpecificOutput?.permissionDecision === "deny"
      ? (out.hookSpecificOutput.permissionDecisionReason ?? "")
      : null;
  } catch {
    return null;
  }
}

const indent = (text: string) => text.trimEnd().replace(/^/gm, "    ");

export const STEPS: Step[] = [
  {
    title: "A Claude Code session starts and is told who it is",
    run(w) {
      const r = w.hook("claude-code", "session-start", claude.start(w.repo, A));
      const context = /"additionalContext":"(Tandem: you are agent-[\w-]+)/.exec(r.stdout)?.[1];
      return { ok: r.code === 0 && context !== undefined, detail: context ?? r.stderr };
    },
  },
  {
    title: "It edits src/app.ts: Tandem claims the file before the write",
    run(w) {
      w.hook("claude-code", "user-prompt-submit", claude.prompt(w.repo, A, "bump the answer"));
      const r = w.hook(
        "claude-code",
        "pre-tool-use",
        claude.write(w.repo, A, "src/app.ts", "export const answer = 42;\n"),
      );
      if (denial(r) === null) w.write("src/app.ts", "export const answer = 42;\n");
      const claims = w.tandem(["claims"]);
      return {
        ok: r.code === 0 && denial(r) === null && claims.stdout.includes("src/app.ts"),
        detail: indent(claims.stdout),
      };
    },
  },
  {
    title: "A Codex session patches the same file: the whole patch is refused",
    run(w) {
      const r = w.hook("codex", "pre-tool-use", codex.patch(w.repo, B, PATCH));
      const reason = denial(r);
      return { ok: reason !== null && /held by agent-/.test(reason), detail: indent(reason ?? r.stdout) };
    },
  },
  {
    title: "Claude commits its file: the post-commit hook releases the claim",
    run(w) {
      w.git(["add", "src/app.ts"], asA);
      const commit = w.git(["commit", "-qm", "Answer 42"], asA);
      const claims = w.tandem(["claims", "--json"]);
      const held = (JSON.parse(claims.stdout || "[]") as unknown[]).length;
      return { ok: commit.code === 0 && held === 0, detail: `    committed; active claims now: ${held}` };
    },
  },
  {
    title: "Claude ends its turn with `tandem status --end-turn`: refused, the commit is not pushed",
    run(w) {
      w.tandem(["task", "bump the answer", "--session", A]);
      const r = w.tandem(["status", "--end-turn", "--session", A]);
      return { ok: r.code === 1 && r.stdout === "" && /push/i.test(r.stderr), detail: indent(r.stderr) };
    },
  },
  {
    title: "After `git push`, the end-turn check passes and prints the status box",
    run(w) {
      const push = w.git(["push", "-q"], asA);
      const r = w.tandem(["status", "--end-turn", "--session", A]);
      return {
        ok: push.code === 0 && r.code === 0 && r.stdout.includes("end-turn check passed"),
        detail: indent(r.stdout),
      };
    },
  },
  {
    title: "Codex tries again and now gets the file",
    run(w) {
      const r = w.hook("codex", "pre-tool-use", codex.patch(w.repo, B, PATCH.replace("41", "42")));
      return {
        ok: r.code === 0 && denial(r) === null,
        detail: "    allowed: the file is committed and no longer claimed",
      };
    },
  },
  {
    title: "A sub-agent runs in its own worktree; its commit and its uncommitted edit are captured",
    run(w, s) {
      const script =
        "echo 'export const helper = 1;' > src/helper.ts && git add src/helper.ts && git commit -qm 'Add helper' && echo 'draft' > DRAFT.md";
      const r = w.tandem([
        "sub",
        "run",
        "--client",
        "exec",
        "--name",
        "helper",
        "--json",
        "--session",
        A,
        "--",
        "sh",
        "-c",
        script,
      ]);
      let report: { id?: string; capture?: { commitCount?: number; hadUncommittedChanges?: boolean } } = {};
      try {
        report = JSON.parse(r.stdout);
      } catch {
        return { ok: false, detail: indent(r.stderr || r.stdout) };
      }
      s.subagent = report.id ?? null;
      const c = report.capture ?? {};
      return {
        ok: r.code === 0 && c.commitCount === 1 && c.hadUncommittedChanges === true,
        detail: `    captured ${c.commitCount} commit(s) and uncommitted work from sub-agent ${report.id}`,
      };
    },
  },
  {
    title: "The artifact is applied back: the commit lands, the draft arrives uncommitted",
    run(w, s) {
      if (!s.subagent) return { ok: false, detail: "    no sub-agent to apply" };
      const r = w.tandem(["sub", "apply", s.subagent, "--session", A]);
      const log = w.git(["log", "--format=%s", "-1"]).stdout.trim();
      const [draft] = parseStatus(w.git(statusArgs({ paths: ["DRAFT.md"] })).stdout).records;
      return {
        ok: r.code === 0 && log === "Add helper" && draft?.kind === "untracked",
        detail: `    HEAD: ${log}; DRAFT.md: ${draft?.kind ?? "missing"}`,
      };
    },
  },
  {
    title: "Applying the same artifact again is recognised, never done twice",
    run(w, s) {
      const r = w.tandem(["sub", "apply", s.subagent ?? "-", "--session", A]);
      const commits = w
        .git(["log", "--format=%s"])
        .stdout.split("\n")
        .filter((l) => l === "Add helper").length;
      return {
        ok: r.code === 0 && /already applied/i.test(r.stdout + r.stderr) && commits === 1,
        detail: indent(r.stdout || r.stderr),
      };
    },
  },
];
