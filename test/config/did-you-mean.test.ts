import { describe, expect, it } from "vitest";
import { closest, editDistance, nearness, suggestKey } from "../../src/config/did-you-mean.js";

const KNOWN = [
  "$schema",
  "agents",
  "agents.stopRitual",
  "agents.requireGitFinalization",
  "agents.finalizationRoots",
  "agents.freshnessSeconds",
  "agents.failClosed",
  "subagents",
  "subagents.worktreeRoot",
  "subagents.clients",
  "subagents.clients.claude-code",
  "subagents.clients.codex",
  "subagents.capture",
  "subagents.capture.maxPatchBytes",
  "subagents.capture.maxDirtyBytes",
];

describe("did you mean", () => {
  it.each([
    ["kitten", "sitting", 3],
    ["stopRitaul", "stopRitual", 1],
    ["", "abc", 3],
    ["same", "same", 0],
  ])("counts %s → %s as %i edits (a swap is one)", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  it.each<[string, string, number | null]>([
    ["FailClosed", "failClosed", 0],
    ["failClose", "failClosed", 1],
    ["freshnessSecs", "freshnessSeconds", 3],
    ["agent", "agents", 1],
    ["ab", "xy", null],
    ["colour", "clients", null],
    ["max", "maxPatchBytes", null],
  ])("rates %s against %s as %s", (word, candidate, rank) => {
    expect(nearness(word, candidate)).toBe(rank);
  });

  it.each<[string, string, string | null]>([
    ["freshnessSecs", "", "agents.freshnessSeconds"],
    ["freshnessSecs", "agents", "agents.freshnessSeconds"],
    ["freshnessSeconds", "", "agents.freshnessSeconds"],
    ["agent", "", "agents"],
    ["capture", "", "subagents.capture"],
    ["maxPatchByte", "subagents.capture", "subagents.capture.maxPatchBytes"],
    ["claude", "subagents.clients", "subagents.clients.claude-code"],
    ["colour", "agents", null],
  ])("suggests for %s under %j: %s", (name, parent, meant) => {
    expect(suggestKey(name, parent, KNOWN)).toBe(meant);
  });

  it("prefers a near miss at the same level over one elsewhere", () => {
    expect(suggestKey("stopRituals", "agents", [...KNOWN, "other.stopRituals2"])).toBe("agents.stopRitual");
  });

  it("picks the nearest value, or none", () => {
    expect(closest("enforced", ["enforce", "observe", "off"])).toBe("enforce");
    expect(closest("sometimes", ["enforce", "observe", "off"])).toBeNull();
  });
});
