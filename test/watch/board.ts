import type { RemoteView } from "../../src/core/remote/remote-view.js";
import type { BoardEvent, BoardModel, BoardSession } from "../../src/watch/model.js";
import { textWidth } from "../../src/watch/text.js";

export const NOW = Date.UTC(2025, 0, 2, 12, 0, 0);

export function session(over: Partial<BoardSession> = {}): BoardSession {
  return {
    name: "agent-wren",
    client: "claude-code",
    kind: "session",
    state: "live",
    activity: "working",
    task: "port the parser",
    claims: 2,
    lastSeen: NOW - 3000,
    guard: "reader",
    ...over,
  };
}

export function event(seq: number, over: Partial<BoardEvent> = {}): BoardEvent {
  return {
    seq,
    ts: NOW - 1000,
    who: "agent-wren",
    kind: "claim.acquired",
    detail: `src/file-${seq}.ts`,
    tone: "good",
    ...over,
  };
}

/** A busy board: two live sessions, a stale one, claims, a sub-agent and a few events. */
export function busyBoard(over: Partial<BoardModel> = {}): BoardModel {
  return {
    root: "/home/dev/projects/tandem",
    now: NOW,
    seq: 42,
    sessions: [
      session(),
      session({ name: "agent-otter", client: "codex", activity: "needs_input", task: null, claims: 0 }),
      session({ name: "agent-moth", state: "stale", activity: "idle", lastSeen: NOW - 900_000 }),
    ],
    claims: [
      { path: "src/parser/tokenizer.ts", holder: "agent-wren", state: "live", lastSeen: NOW - 3000 },
      { path: "docs/old.md", holder: "agent-moth", state: "stale", lastSeen: NOW - 900_000 },
    ],
    subagents: [
      {
        name: "helper",
        parent: "agent-wren",
        client: "exec",
        state: "exit 0",
        capture: "2 commits + 1.2 KB uncommitted",
        apply: "not applied",
        running: false,
        problem: false,
      },
    ],
    events: [
      event(40),
      event(41, {
        who: "agent-otter",
        kind: "claim.denied",
        detail: "src/a.ts (held by agent-wren)",
        tone: "bad",
      }),
      event(42, { kind: "task.set", detail: "port the parser", tone: "plain" }),
    ],
    ...over,
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching SGR sequences is the point.
export const stripAnsi = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

export const widthOf = (line: string): number => textWidth(stripAnsi(line));

/** What the last sync showed of another clone: one session there, one lease, a failed last round. */
export function remoteView(over: Partial<RemoteView> = {}): RemoteView {
  return {
    state: "failed",
    remote: "origin",
    lastSuccess: NOW - 300_000,
    checkouts: 1,
    sessions: [
      {
        machine: "buildbox:/srv/tandem",
        name: "agent-lark",
        client: "codex",
        branch: "feature/lexer",
        task: "split the lexer",
        paths: ["src/lexer.ts", "src/token.ts"],
        asOf: NOW - 120_000,
      },
    ],
    leases: [
      {
        path: "src/grammar.ts",
        checkout: "c2",
        checkoutName: "laptop:/home/ann/tandem",
        session: "agent-fern",
        task: null,
        expires: NOW + 3_600_000,
        mine: false,
      },
    ],
    unknown: {
      since: NOW - 300_000,
      error: "fatal: unable to access 'https://git.example/r.git/': Could not resolve host",
      fix: "origin cannot be reached: check that `git fetch origin` works here (URL, network, credentials).",
    },
    ...over,
  };
}
