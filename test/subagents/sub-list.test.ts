import { describe, expect, it } from "vitest";
import { columns, sizeText } from "../../src/subagents/lifecycle/report.js";
import { runScript, sub, subRepo } from "./sub-fixture.js";

describe("sub list", () => {
  it("prints a header and sizes a person reads, one aligned row per sub-agent", () => {
    const s = subRepo();
    const a = runScript(s.repo, "echo a > a.txt && git add a.txt && git commit -qm a && echo d > d.txt", [
      "--name",
      "alpha",
    ]).json;
    const b = runScript(s.repo, "true").json;
    const lines = sub(s.repo, ["list"]).stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +NAME +CHILD +CAPTURE +APPLIED$/);
    const row = lines.find((l) => l.startsWith(a.id))!;
    expect(row).toMatch(/alpha +exited with 0 +1: 1 commit \+ \d+ B uncommitted +0 targets$/);
    expect(row).not.toMatch(/\dc\+\d+B/);
    expect(lines.find((l) => l.startsWith(b.id))).toMatch(/ - +exited with 0 +1: 0 commits +0 targets$/);
    // Columns line up under the header.
    const at = lines[0]!.indexOf("CAPTURE");
    for (const l of lines.slice(1)) expect(l.slice(at)).toMatch(/^1: /);
  });

  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1536, "1.5 KB"],
    [5 * 1024 * 1024, "5.0 MB"],
  ])("writes %i bytes as %s", (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });

  it("pads every column but the last to its widest cell", () => {
    expect(columns(["A", "B"], [["long", "x"]])).toBe("A     B\nlong  x\n");
  });
});
