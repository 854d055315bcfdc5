import { describe, expect, it } from "vitest";
import { landedTrailer, sessionTrailers, trailersFor } from "../../../src/core/provenance/trailers.js";

const s = (id: string, task: string | null = null) => ({
  id,
  name: `claude-${id}`,
  client: "claude-code",
  task,
});

describe("provenance trailers", () => {
  it.each([
    {
      what: "a session without a task",
      sessions: [s("a")],
      lines: ["Tandem-Session: claude-a (a)", "Tandem-Client: claude-code"],
    },
    {
      what: "a task on several lines is one line",
      sessions: [s("a", "fix the\n  parser ")],
      lines: ["Tandem-Session: claude-a (a)", "Tandem-Client: claude-code", "Tandem-Task: fix the parser"],
    },
    {
      what: "a blank task is none",
      sessions: [s("a", "  ")],
      lines: ["Tandem-Session: claude-a (a)", "Tandem-Client: claude-code"],
    },
    {
      what: "two sessions in order, each once",
      sessions: [s("b"), s("a"), s("b")],
      lines: [
        "Tandem-Session: claude-b (b)",
        "Tandem-Client: claude-code",
        "Tandem-Session: claude-a (a)",
        "Tandem-Client: claude-code",
      ],
    },
    { what: "nobody", sessions: [], lines: [] },
  ])("$what", ({ sessions, lines }) => {
    expect(sessionTrailers(sessions)).toEqual(lines);
  });

  it("a landing names its session, a person's none", () => {
    expect(landedTrailer(s("a"))).toEqual(["Tandem-Landed-By: claude-a (a) via claude-code"]);
    expect(landedTrailer(null)).toEqual([]);
  });

  it.each([
    [undefined, true],
    ["message", true],
    ["template", true],
    ["commit", true],
    ["merge", false],
    ["squash", false],
  ])("git's message source %s: trailers %s", (source, want) => {
    expect(trailersFor(source)).toBe(want);
  });
});
