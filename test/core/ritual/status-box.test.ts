import { describe, expect, it } from "vitest";
import { BOX_WIDTH, renderStatusBox, type StatusModel } from "../../../src/core/ritual/status-box.js";

const model = (warnings: string[]): StatusModel => ({
  session: { name: "agent-a", client: "claude-code", startedAt: 0, task: null, activity: "active" },
  claims: [],
  awaiting: [],
  ignored: [],
  peers: [],
  subagents: [],
  warnings,
  endTurn: false,
  now: 60_000,
});

const text = (box: string) =>
  box
    .split("\n")
    .filter((l) => l.startsWith("| "))
    .map((l) => l.slice(2, -2).trim())
    .join(" ");

describe("status box", () => {
  it.each([
    [
      "a hook-error warning ending in its command",
      "3 hook error(s) since this session started; see `tandem events --kind hook.error`",
    ],
    [
      "a path longer than a row",
      `cannot read /${"very-long-directory/".repeat(6)}file.txt; run \`tandem doctor\``,
    ],
    ["a short warning", "store is busy"],
  ])("shows %s in full, wrapped inside the box", (_, warning) => {
    const box = renderStatusBox(model([warning]));
    for (const line of box.trimEnd().split("\n")) expect(line).toHaveLength(BOX_WIDTH);
    expect(box).not.toContain("~");
    expect(text(box).replace(/\s+/g, "")).toContain(warning.replace(/\s+/g, ""));
  });

  it("indents a warning's continuation under its text", () => {
    const box = renderStatusBox(model(["x ".repeat(50).trim()]));
    const rows = box.split("\n").filter((l) => /^\| (warning| {8}) /.test(l));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[1]).toMatch(/^\| {10}x/);
  });

  it.each([
    [1, "1 claim,"],
    [2, "2 claims,"],
    [0, "0 claims,"],
  ])("counts a peer's %i claim(s) in plain English", (claims, words) => {
    const peer = { name: "agent-b", client: "codex", task: null, claims, lastSeen: 0 };
    const box = renderStatusBox({ ...model([]), peers: [peer] });
    expect(text(box)).toContain(`agent-b (codex) ${words} seen`);
  });

  it("names the guard in force for the session and each peer when it is known", () => {
    const peer = {
      name: "agent-b",
      client: "codex",
      task: null,
      claims: 1,
      lastSeen: 0,
      guard: "reader" as const,
    };
    const m = model([]);
    const box = renderStatusBox({ ...m, session: { ...m.session, guard: "kernel" }, peers: [peer] });
    expect(text(box)).toContain("guard    kernel; peers: agent-b reader");
    expect(text(box)).toContain("agent-b (codex) 1 claim,");
    expect(text(renderStatusBox(m))).not.toContain("guard ");
  });
});
