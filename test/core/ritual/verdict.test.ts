import { describe, expect, it } from "vitest";
import { CLIENTS, type ClientName } from "../../../src/clients/index.js";
import { remediationText } from "../../../src/core/ritual/messages.js";
import {
  type RitualEvent,
  type RitualInput,
  stopVerdict,
  windowStart,
} from "../../../src/core/ritual/verdict.js";

let seq = 0;
const ev = (kind: string, data: unknown = {}): RitualEvent => ({ seq: ++seq, kind, data });
const human = (text = "do it") => ev("prompt.submitted", { text, remediation: false });
const remediation = () =>
  ev("prompt.submitted", { text: "[tandem:stop-remediation rule=status]", remediation: true });
const tool = () => ev("tool.requested", { tool: "Write", targets: ["a"] });
const denied = () =>
  ev("claim.denied", { tool: "Write", refused: [{ path: "a", reason: "held", holder: "s2" }] });
const ran = () => ev("tool.completed", { tool: "Bash" });
const calls = (toolUseId: string) => ev("tool.requested", { tool: "Edit", targets: ["a"], toolUseId });
const completed = (toolUseId: string) => ev("tool.completed", { tool: "Edit", toolUseId });
const status = (end_turn = false) => ev("status.checked", { end_turn });
const task = () => ev("task.set", { text: "x" });
const stopped = (verdict: string, enforcement = "enforced") => ev("turn.stopped", { verdict, enforcement });

/** `client` names a registered client: its ritual style comes from its folder, as in the hook. */
type Over = Partial<Omit<RitualInput, "client">> & { client?: ClientName };

function input(events: RitualEvent[], { client = "cursor", ...over }: Over = {}): RitualInput {
  return {
    client: CLIENTS[client],
    sessionKind: "session",
    events,
    cutoffSeq: events[events.length - 1]?.seq ?? 0,
    lastAssistantMessage: null,
    mode: "enforce",
    requireGitFinalization: false,
    blockCap: 2,
    replyHasBox: false,
    ...over,
  };
}

describe("stopVerdict", () => {
  it.each<[string, () => RitualEvent[], Over, { verdict: string; rule: string | null }]>([
    ["a pure-prose turn passes", () => [human()], {}, { verdict: "pass", rule: null }],
    [
      "a turn whose only tool call Tandem refused passes: nothing ran",
      () => [human(), tool(), denied()],
      { client: "claude-code" },
      { verdict: "pass", rule: null },
    ],
    [
      "a turn of several refused calls passes",
      () => [human(), tool(), denied(), tool(), denied()],
      {},
      { verdict: "pass", rule: null },
    ],
    [
      "a refused call whose skip the client still reports as completed (Cline) passes",
      () => [human(), calls("c1"), denied(), completed("c1")],
      { client: "cline", mode: "observe" },
      { verdict: "pass", rule: null },
    ],
    [
      "a call that ran after a refused one still needs the ritual, whatever its id",
      () => [human(), calls("c1"), denied(), completed("c1"), calls("c2"), completed("c2")],
      { client: "cline", mode: "observe" },
      { verdict: "block", rule: "status" },
    ],
    [
      "a completion without an id is a call that ran",
      () => [human(), calls("c1"), denied(), ran()],
      {},
      { verdict: "block", rule: "status" },
    ],
    [
      "a refused call next to one that ran still needs the ritual",
      () => [human(), tool(), denied(), tool(), ran()],
      {},
      { verdict: "block", rule: "status" },
    ],
    [
      "a call that ran before a refused one still needs the ritual",
      () => [human(), tool(), ran(), tool(), denied()],
      {},
      { verdict: "block", rule: "status" },
    ],
    [
      "a tool turn without status breaks rule 1",
      () => [human(), tool(), task()],
      {},
      { verdict: "block", rule: "status" },
    ],
    [
      "a tool turn without task breaks rule 2",
      () => [human(), tool(), status()],
      {},
      { verdict: "block", rule: "task" },
    ],
    [
      "a complete ritual passes",
      () => [human(), tool(), status(), task()],
      {},
      { verdict: "pass", rule: null },
    ],
    [
      "Claude: a reply without the box breaks rule 3",
      () => [human(), tool(), status(), task()],
      { client: "claude-code" },
      { verdict: "block", rule: "status-box" },
    ],
    [
      "Claude: a reply with the box passes",
      () => [human(), tool(), status(), task()],
      { client: "claude-code", replyHasBox: true },
      { verdict: "pass", rule: null },
    ],
    [
      "required finalization needs an end-turn status",
      () => [human(), tool(), status(false), task()],
      { requireGitFinalization: true },
      { verdict: "block", rule: "status" },
    ],
    [
      "required finalization passes with an end-turn status",
      () => [human(), tool(), status(true), task()],
      { requireGitFinalization: true },
      { verdict: "pass", rule: null },
    ],
    [
      "signals from before the latest human prompt do not count",
      () => [human(), tool(), status(), task(), human(), tool()],
      {},
      { verdict: "block", rule: "status" },
    ],
    [
      "a second human prompt with no ritual blocks again",
      () => [human(), tool(), status(), task(), stopped("pass"), human(), tool()],
      {},
      { verdict: "block", rule: "status" },
    ],
    [
      "a remediation followup supplying the missing half passes",
      () => [human(), tool(), status(), stopped("block"), remediation(), task()],
      {},
      { verdict: "pass", rule: null },
    ],
    [
      "a chain of followups anchors on the last human prompt",
      () => [
        human(),
        tool(),
        stopped("block"),
        remediation(),
        status(),
        stopped("block"),
        remediation(),
        task(),
      ],
      {},
      { verdict: "pass", rule: null },
    ],
    [
      "sub-agents are exempt",
      () => [human(), tool()],
      { sessionKind: "subagent" },
      { verdict: "pass", rule: null },
    ],
  ])("%s", (_name, events, over, want) => {
    expect(stopVerdict(input(events(), over))).toMatchObject(want);
  });

  it("ignores events after the cutoff", () => {
    const events = [human(), tool()];
    const cutoff = events[1]!.seq;
    events.push(status(), task());
    expect(stopVerdict(input(events, { cutoffSeq: cutoff }))).toMatchObject({
      verdict: "block",
      rule: "status",
    });
  });

  it.each([
    ["enforce", "cursor", "enforced"],
    ["observe", "cursor", "observe_only"],
    ["off", "claude-code", "disabled"],
    ["enforce", "codex", "observe_only"],
    ["enforce", "gemini-cli", "enforced"],
  ] as const)("mode %s on %s is %s", (mode, client, enforcement) => {
    expect(stopVerdict(input([human(), tool()], { mode, client }))).toMatchObject({
      verdict: "block",
      enforcement,
    });
  });

  it("stops enforcing on Gemini after the same cap: its AfterAgent block starts a new prompt each time", () => {
    const events = [human(), tool(), stopped("block"), stopped("block")];
    expect(stopVerdict(input(events, { client: "gemini-cli" }))).toMatchObject({
      enforcement: "observe_only",
    });
    expect(stopVerdict(input(events.slice(0, 3), { client: "gemini-cli" }))).toMatchObject({
      enforcement: "enforced",
    });
  });

  it("stops enforcing on Claude after the cap of consecutive blocks, keeping the unmet rule", () => {
    const events = [human(), tool(), stopped("block"), stopped("block")];
    expect(stopVerdict(input(events, { client: "claude-code" }))).toMatchObject({
      verdict: "block",
      rule: "status",
      enforcement: "observe_only",
    });
    expect(stopVerdict(input(events.slice(0, 3), { client: "claude-code" }))).toMatchObject({
      enforcement: "enforced",
    });
  });

  it("lists every unmet rule for the remediation message", () => {
    expect(stopVerdict(input([human(), tool()], { client: "claude-code" })).missing).toEqual([
      "status",
      "task",
      "status-box",
    ]);
  });
});

describe("windowStart", () => {
  it("walks back over at most eight remediation prompts", () => {
    const events = [human(), ...Array.from({ length: 10 }, remediation)];
    const start = windowStart(events, events[events.length - 1]!.seq);
    expect(start).toBe(events[2]!.seq);
  });

  it("is 0 when no prompt was recorded", () => {
    expect(windowStart([tool()], 1e9)).toBe(0);
  });
});

describe("the Stop remediation message", () => {
  it.each([
    [["status-box"], /box `tandem status` printed.*need not run the commands again/, /Run `tandem/],
    [["status"], /^Run `tandem status`, and end your reply/, /tandem task/],
    [["task"], /Run `tandem task ".*and then run `tandem status`/, /need not/],
    [["status", "task"], /Run `tandem task ".*and then run `tandem status`/, /need not/],
  ] as const)("asks a session missing %j only for that", (missing, wanted, unwanted) => {
    const text = remediationText(missing, false);
    const steps = text.slice(text.indexOf(". ") + 2);
    expect(steps).toMatch(wanted);
    expect(steps).not.toMatch(unwanted);
  });

  it("asks for --end-turn and the push only when a command is to be run", () => {
    expect(remediationText(["task"], true)).toMatch(/tandem status --end-turn` \(it passes only when/);
    expect(remediationText(["status-box"], true)).not.toMatch(/committed and pushed/);
  });

  it("sends a rejected push to tandem land rather than a pull or a stash", () => {
    expect(remediationText(["status"], true)).toMatch(
      /a push the remote rejects is `tandem land`, never a pull or a stash/,
    );
    expect(remediationText(["status"], false)).not.toMatch(/tandem land/);
  });
});
