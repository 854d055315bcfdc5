import { expect, it } from "vitest";
import { type RunFacts, runVerdict } from "../../../src/core/jail/identity.js";

const own = { id: "sess-r", name: "R" };
const base: RunFacts = {
  args: ["status"],
  env: {},
  run: "run-7",
  runAlive: true,
  callerInRun: true,
  hook: null,
  own,
};
const hook = (h: Partial<NonNullable<RunFacts["hook"]>>): Partial<RunFacts> => ({
  args: ["hook", "codex", "pre-tool-use"],
  own: null,
  hook: { session: "s", known: true, agentInRun: true, envPidInRun: true, ...h },
});

const cases: [string, Partial<RunFacts>, string][] = [
  ["its agent's status", {}, "run sess-r"],
  ["its agent naming itself", { args: ["release", "f", "--session", "R"] }, "run sess-r"],
  ["its agent naming a peer", { args: ["release", "f", "--session", "A", "--force"] }, "session A"],
  ["TANDEM_SESSION naming a peer", { env: { TANDEM_SESSION: "A" } }, "session A"],
  ["no session of the run above the caller", { own: null }, "session"],
  ["a caller outside the run's tree (a pid it named)", { callerInRun: false }, "process"],
  ["a run that has ended (its key left behind)", { runAlive: false }, "process"],
  ["its client's hook for its own session", hook({}), "hook"],
  ["its client's first hook (a session not yet known)", hook({ known: false, agentInRun: false }), "hook"],
  [
    "a hook whose agent cannot be found",
    hook({ known: false, agentInRun: false, envPidInRun: null }),
    "hook",
  ],
  ["a hook naming a peer's live session", hook({ session: "A", agentInRun: false }), "refused hook A"],
  [
    "a hook with a peer's agent pid",
    hook({ session: "new", known: false, envPidInRun: false }),
    "refused hook new",
  ],
  ["a hook from outside the tree", { ...hook({}), callerInRun: false }, "process"],
];

it.each(cases)("a request through a run's door: %s", (_what, facts, want) => {
  const v = runVerdict({ ...base, ...facts });
  const got =
    v.kind === "run"
      ? `run ${v.session}`
      : v.kind === "hook"
        ? "hook"
        : v.attempt === "hook"
          ? `refused hook ${v.claimed}`
          : `${v.attempt}${v.claimed ? ` ${v.claimed}` : ""}`;
  expect(got).toBe(want);
  if (v.kind === "refuse") expect(v.reason).toMatch(/Nothing was done.*recorded; \S/);
});
