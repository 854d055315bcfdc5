import { describe, expect, it } from "vitest";
import { leftRows } from "../../src/core/ui/left-rows.js";

const NOW = 10_000_000;

describe("the board's rows for left work", () => {
  it("names the former owner, its task and when it ended, with the commands that settle the file", () => {
    const [row] = leftRows(
      [
        {
          path: "src/f.txt",
          owner: "amber",
          client: "codex",
          task: "fix the parser",
          ended: true,
          at: NOW - 190_000,
        },
      ],
      NOW,
      "npx tandem",
    );
    expect(row).toEqual({
      path: "src/f.txt",
      owner: "amber",
      client: "codex",
      task: "fix the parser",
      when: "ended 3m ago",
      commands: [
        // A person reads the board: adopt, which only an agent can run, is not offered as a command.
        { what: "get its saved bytes back", command: "npx tandem recover src/f.txt --session amber" },
        { what: "throw it away", command: "npx tandem discard src/f.txt --yes" },
      ],
    });
  });

  it("says a session that went quiet was last seen, and that it declared no task", () => {
    const [row] = leftRows(
      [
        {
          path: "a.txt",
          owner: "birch",
          client: "claude-code",
          task: null,
          ended: false,
          at: NOW - 7_200_000,
        },
      ],
      NOW,
      "tandem",
    );
    expect(row!.when).toBe("last seen 2h ago");
    expect(row!.task).toBe("no task declared");
  });

  it("quotes a path the shell would split or read as an option, after the person's launcher", () => {
    const [row] = leftRows(
      [{ path: "-my notes.txt", owner: "cedar", client: "codex", task: null, ended: true, at: NOW }],
      NOW,
      "'/opt/my tools/tandem'",
    );
    expect(row!.commands.map((c) => c.command)).toEqual([
      "'/opt/my tools/tandem' recover './-my notes.txt' --session cedar",
      "'/opt/my tools/tandem' discard './-my notes.txt' --yes",
    ]);
  });
});
