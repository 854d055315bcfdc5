import { describe, expect, it } from "vitest";
import { extractShellTargets } from "../../src/targets/shell.js";

describe("the shell reader on other worktrees and refs/tandem/*", () => {
  it.each([
    ["git worktree remove --force ../wt", ["../wt"]],
    ["git worktree remove -f -f ../wt", ["../wt"]],
    ["cd src && git worktree remove ../../wt", ["src/../../wt"]],
  ])("names the directory `%s` removes", async (command, writes) => {
    const found = await extractShellTargets(command, { home: "/home/user" });
    expect(found).toMatchObject({ writes, opaque: false });
  });

  it("leaves other worktree subcommands opaque", async () => {
    const found = await extractShellTargets("git worktree move ../wt ../elsewhere", { home: "/home/user" });
    expect(found).toMatchObject({ writes: [], opaque: true });
  });

  it.each([
    [
      "git push -f origin :refs/tandem/leases",
      "`git push -f origin :refs/tandem/leases` deletes refs/tandem/leases",
    ],
    [
      "git -C sub push --mirror origin",
      "`git push --mirror origin` mirrors every ref, deleting or rewriting refs/tandem/*",
    ],
    [
      'sh -c "git push origin +HEAD:refs/tandem/leases"',
      "`git push origin +HEAD:refs/tandem/leases` rewrites refs/tandem/leases",
    ],
  ])("records `%s` as a push at Tandem's refs", async (command, text) => {
    const found = await extractShellTargets(command, { home: "/home/user" });
    expect(found.protectedRefs).toEqual([text]);
  });

  it("records nothing for a branch push", async () => {
    const found = await extractShellTargets("git push -u origin HEAD", { home: "/home/user" });
    expect(found.protectedRefs).toEqual([]);
  });
});
