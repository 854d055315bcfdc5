import { describe, expect, it } from "vitest";
import {
  type CallerPlace,
  decideIdentity,
  type IdentityFacts,
  type NamedVia,
} from "../../../src/core/sessions/identity.js";

const A = { id: "a", name: "agent-a" };
const B = { id: "b", name: "agent-b" };
const C = { id: "c", name: "agent-c" };

const facts = (
  via: NamedVia,
  nearest: { id: string; name: string }[],
  command: string | null,
  {
    enclosing = false,
    within = false,
    place = "terminal",
    namedLive = true,
  }: { enclosing?: boolean; within?: boolean; place?: CallerPlace; namedLive?: boolean } = {},
): IdentityFacts => ({ named: { ...A, via }, nearest, enclosing, within, command, place, namedLive });

describe("who a command that names session A acts for", () => {
  const cases: [string, IdentityFacts, string, string | null][] = [
    ["a person's shell naming A with --session, releasing", facts("flag", [], "release"), "person", "named"],
    [
      "a person's shell setting TANDEM_SESSION=A, setting a task",
      facts("TANDEM_SESSION", [], "task"),
      "person",
      "named",
    ],
    ["A's own shell naming A", facts("TANDEM_SESSION", [A], "release"), "own", "named"],
    [
      "one agent process hosting A and B (Codex app-server)",
      facts("flag", [B, A], "release"),
      "own",
      "named",
    ],
    [
      "B's shell naming A with TANDEM_SESSION, releasing",
      facts("TANDEM_SESSION", [B], "release"),
      "identity",
      null,
    ],
    [
      "B's shell naming A with --session, ending the turn",
      facts("flag", [B], "status --end-turn"),
      "identity",
      null,
    ],
    ["B's shell naming A with --session, reserving", facts("flag", [B], "reserve"), "identity", null],
    [
      "B's shell naming A's client variable, releasing",
      facts("client-env", [B], "release"),
      "identity",
      null,
    ],
    [
      "B's shell naming A, an agent B started itself",
      facts("flag", [B], "release", { within: true }),
      "nested",
      "named",
    ],
    ["B's shell naming A with --session, only reading", facts("flag", [B], null), "ancestry", "nearest"],
    [
      "a nested agent C started from A's shell, A's variable leaked",
      facts("client-env", [C], "task", { enclosing: true }),
      "leaked",
      "nearest",
    ],
    [
      "a nested agent C naming its parent A with TANDEM_SESSION",
      facts("TANDEM_SESSION", [C], "task", { enclosing: true }),
      "identity",
      null,
    ],
  ];
  it.each(cases)("%s: %s", (_what, f, rule, acts) => {
    const v = decideIdentity(f);
    expect(v.rule).toBe(rule);
    expect(v.allow ? v.acts : null).toBe(acts);
  });

  it("says what was refused, who the caller is, and what to do instead, without asking to set TANDEM_SESSION", () => {
    const v = decideIdentity(facts("TANDEM_SESSION", [B], "release"));
    expect(v.allow).toBe(false);
    const reason = v.allow ? "" : v.reason;
    expect(reason).toMatch(
      /runs inside agent-b's agent process but names session agent-a \(by TANDEM_SESSION\)/,
    );
    expect(reason).toMatch(/`tandem release` changed nothing/);
    expect(reason).toMatch(/Run it without TANDEM_SESSION to act as agent-b/);
    expect(reason).not.toMatch(/set TANDEM_SESSION/);
  });
});

describe("a caller with no agent among its ancestors (decision 0045)", () => {
  const cases: [string, IdentityFacts, string, string | null][] = [
    [
      "a person's terminal naming live A, releasing",
      facts("TANDEM_SESSION", [], "release", { place: "terminal" }),
      "person",
      "named",
    ],
    [
      "a process with no terminal (setsid, a job) naming live A, releasing",
      facts("TANDEM_SESSION", [], "release", { place: "none" }),
      "detached",
      null,
    ],
    [
      "a process with no terminal naming live A by --session, ending the turn",
      facts("flag", [], "status --end-turn", { place: "none" }),
      "detached",
      null,
    ],
    [
      "a process with no terminal naming live A by Claude's variable, setting a task",
      facts("client-env", [], "task", { place: "none" }),
      "detached",
      null,
    ],
    [
      "a process left in a live agent's terminal session naming A, reserving",
      facts("flag", [], "reserve", { place: "agent-session" }),
      "detached",
      null,
    ],
    [
      "a process with no terminal naming A, only reading",
      facts("TANDEM_SESSION", [], null, { place: "none" }),
      "person",
      "named",
    ],
    [
      "a process with no terminal naming a session that is no longer live, releasing",
      facts("TANDEM_SESSION", [], "release", { place: "none", namedLive: false }),
      "person",
      "named",
    ],
    [
      "B's shell with no terminal naming its own session (the ancestry decides, not the terminal)",
      facts("TANDEM_SESSION", [A], "release", { place: "none" }),
      "own",
      "named",
    ],
  ];
  it.each(cases)("%s: %s", (_what, f, rule, acts) => {
    const v = decideIdentity(f);
    expect(v.rule).toBe(rule);
    expect(v.allow ? v.acts : null).toBe(acts);
  });

  it("says where the command ran, that nothing changed, and what a person and a script do instead", () => {
    const none = decideIdentity(facts("TANDEM_SESSION", [], "release", { place: "none" }));
    const reason = none.allow ? "" : none.reason;
    expect(reason).toMatch(/runs outside every agent's process and has no terminal/);
    expect(reason).toMatch(/names the live session agent-a \(by TANDEM_SESSION\)/);
    expect(reason).toMatch(/`tandem release` changed nothing and the attempt was recorded/);
    expect(reason).toMatch(/A person: run it from your terminal/);
    expect(reason).toMatch(/A script an agent runs: run it in the foreground/);
    expect(reason).not.toMatch(/set TANDEM_SESSION/);
    const shared = decideIdentity(facts("flag", [], "task", { place: "agent-session" }));
    expect(shared.allow ? "" : shared.reason).toMatch(/in a live agent's terminal session/);
  });
});
