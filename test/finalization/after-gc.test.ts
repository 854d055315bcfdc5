import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { hook } from "../helpers/hooks.js";
import { tempDir } from "../helpers/repo.js";
import { clonedRepo, endTurn, problems, shell, write } from "./fixture.js";

const end = (repo: string, session: string) =>
  hook(
    "claude-code",
    "session-end",
    { session_id: session, cwd: repo, hook_event_name: "SessionEnd", reason: "exit" },
    { cwd: repo },
  );

describe("tandem status --end-turn after tandem gc", () => {
  it("gives every session the same verdict after its peers' history is compacted, and after a rebuild", () => {
    const { repo } = clonedRepo(tempDir(), "repo");
    // LIVE owns a directory; a session that has since ended left its own file in it.
    shell(repo, "live", "rm -rf lib/tmp");
    expect(tandem(["release", "lib/tmp", "--session", "live"], { cwd: repo }).code).toBe(0);
    write(repo, "old", "lib/tmp/inner.txt");
    write(repo, "live", "mine.txt");
    end(repo, "old");
    const before = { live: endTurn(repo, "live"), old: endTurn(repo, "old") };
    // The peer's file is not LIVE's to finalize; its own is.
    expect(problems(before.live.json.findings)).toEqual({
      dirty: [{ repo, path: "mine.txt", state: "??" }],
    });
    expect(problems(before.old.json.findings)).toMatchObject({
      dirty: [{ repo, path: "lib/tmp/inner.txt", state: "??" }],
    });

    const gc = tandem(["gc", "--older-than", "0m", "--json"], { cwd: repo });
    expect(gc.code, gc.stderr).toBe(0);
    expect(JSON.parse(gc.stdout)).toMatchObject({ sessions: 1 });
    const summaries = tandem(["events", "--kind", "session.compacted", "--json"], { cwd: repo });
    const lines = summaries.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      kind: "session.compacted",
      data: { session: { nativeId: "old" } },
    });

    const after = { live: endTurn(repo, "live"), old: endTurn(repo, "old") };
    expect(after.live.json.findings).toEqual(before.live.json.findings);
    expect(after.old.json.findings).toEqual(before.old.json.findings);
    expect(after.live.code).toBe(before.live.code);

    expect(tandem(["doctor", "--rebuild", "--json"], { cwd: repo }).stdout).toContain('"identical": true');
    expect(endTurn(repo, "live").json.findings).toEqual(before.live.json.findings);
    expect(endTurn(repo, "old").json.findings).toEqual(before.old.json.findings);
  });
});
