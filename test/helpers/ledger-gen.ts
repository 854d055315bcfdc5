import { CLIENT_NAMES } from "../../src/clients/index.js";
import { ensureSession } from "../../src/sessions/register.js";
import type { Db } from "../../src/store/db.js";
import { append, write } from "../../src/store/ledger/append.js";

/** A small deterministic PRNG so generated ledgers are reproducible. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

const WT = "/work/repo";

/**
 * Appends `count` mixed events as sessions would: starts, prompts, tool calls,
 * claims taken and released, tasks, status checks, stops, touched files, ends.
 */
export function generateLedger(db: Db, count: number, seed = 7, prefix = "native"): void {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const sessions: string[] = [];
  const held = new Map<string, string>();
  let n = 0;
  while (n < count) {
    write(db, (tx) => {
      if (sessions.length === 0 || rand() < 0.02) {
        const { session } = ensureSession(tx, {
          client: pick(CLIENT_NAMES),
          nativeId: `${prefix}-${sessions.length}`,
          kind: "session",
          parentId: null,
          agentPid: null,
          agentPidStart: null,
          cwd: WT,
        });
        sessions.push(session.id);
        n++;
        return;
      }
      const s = pick(sessions);
      const path = `src/file-${Math.floor(rand() * 200)}.ts`;
      const r = rand();
      if (r < 0.25) {
        if (held.has(path)) {
          append(tx, {
            kind: "claim.released",
            session: held.get(path)!,
            data: { worktree: WT, path, reason: pick(["commit", "explicit", "checkout"] as const) },
          });
          held.delete(path);
        } else {
          append(tx, {
            kind: "claim.acquired",
            session: s,
            data: { worktree: WT, path, disposition: "git", root: WT },
          });
          held.set(path, s);
        }
      } else if (r < 0.4) {
        append(tx, {
          kind: "tool.requested",
          session: s,
          data: { tool: "Write", targets: [path], inputBytes: 10, inputDigest: "ab" },
        });
      } else if (r < 0.5) {
        append(tx, {
          kind: "prompt.submitted",
          session: s,
          data: { text: `prompt ${n}`, bytes: 9, truncated: false, remediation: false },
        });
      } else if (r < 0.6) {
        append(tx, { kind: "task.set", session: s, data: { text: `task ${n}` } });
      } else if (r < 0.7) {
        append(tx, { kind: "status.checked", session: s, data: { end_turn: rand() < 0.5 } });
      } else if (r < 0.8) {
        append(tx, {
          kind: "turn.stopped",
          session: s,
          data: { verdict: "pass", rule: null, enforcement: "enforced" },
        });
      } else if (r < 0.9) {
        append(tx, {
          kind: "files.touched",
          session: s,
          data: { worktree: WT, paths: [path], via: "shell" },
        });
      } else if (r < 0.95) {
        append(tx, {
          kind: "activity.set",
          session: s,
          data: { activity: pick(["idle", "working", "needs_input"] as const) },
        });
      } else {
        append(tx, { kind: "tool.completed", session: s, data: { tool: "Bash" } });
      }
      n++;
    });
  }
}
