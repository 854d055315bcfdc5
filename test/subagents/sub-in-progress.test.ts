import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { g, writeFiles } from "../helpers/repo.js";
import {
  addTarget,
  expectOk,
  runScriptHere,
  type SubRepo,
  subHere,
  subRepo,
  targetState,
} from "./sub-fixture.js";

/** A repository with a branch `side` whose commit rewrites notes.txt, for the child to collide with. */
function withSide(): SubRepo & { side: string } {
  const s = subRepo();
  g(s.repo, "checkout", "-q", "-b", "side");
  writeFiles(s.repo, { "notes.txt": "side notes\n" });
  g(s.repo, "commit", "-qam", "side edit");
  const side = g(s.repo, "rev-parse", "HEAD").trim();
  g(s.repo, "checkout", "-q", "main");
  return { ...s, side };
}

/** The child commits its own notes.txt, then starts `op`, which stops on the conflict. */
const CHILD_EDIT = "echo 'child notes' > notes.txt && git commit -qam 'child edit'";

describe("a child stopped in the middle of a git operation", () => {
  it("is captured as incomplete mid-rebase, refused by apply with the commands, and its markers refused even with --allow-in-progress", async () => {
    const s = withSide();
    const { json } = await runScriptHere(s.repo, `${CHILD_EDIT} && (git rebase side || true)`);
    const wt = json.worktree;
    const t = addTarget(s, "t");
    const before = targetState(t, s.base);

    const show = await subHere(s.repo, ["show", json.id]);
    expectOk(show);
    expect(show.stdout).toContain("INCOMPLETE the child stopped in the middle of a git rebase");
    expect(show.stdout).toContain(`the branch ${json.branch} still holds the commits from before the rebase`);
    expect(show.stdout).toContain(`git -C ${wt} rebase --abort`);
    expect(show.stdout).toMatch(/CONFLICT MARKERS in the uncommitted patch: notes\.txt/);
    expect((await subHere(s.repo, ["list"])).stdout).toContain(
      `INCOMPLETE (rebase in progress onto ${s.side.slice(0, 12)}, 1 conflicted)`,
    );

    const refused = await subHere(s.repo, ["apply", json.id, "--target", t]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the capture is incomplete");
    expect(refused.stderr).toContain("git rebase with conflicts in notes.txt");
    expect(refused.stderr).toContain(`\`git -C ${wt} rebase --continue\``);
    expect(refused.stderr).toContain(`\`git -C ${wt} rebase --abort\``);
    expect(refused.stderr).toContain(`\`tandem sub capture ${json.id}\``);
    expect(refused.stderr).toContain(
      `the branch ${json.branch} still holds the commits from before the rebase`,
    );
    expect(targetState(t, s.base)).toEqual(before);

    const markers = await subHere(s.repo, ["apply", json.id, "--target", t, "--allow-in-progress"]);
    expect(markers.code).toBe(1);
    expect(markers.stderr).toContain("the uncommitted patch adds conflict markers to notes.txt");
    expect(markers.stderr).toContain("--allow-conflict-markers");
    expect(targetState(t, s.base)).toEqual(before);
    expect(
      (await subHere(s.repo, ["apply", json.id, "--target", t, "--allow-in-progress", "--dry-run"])).code,
    ).toBe(1);
  });

  it("offers the child's own commit once the rebase is aborted and captured again", async () => {
    const s = withSide();
    const { json } = await runScriptHere(s.repo, `${CHILD_EDIT} && (git rebase side || true)`);
    g(json.worktree, "rebase", "--abort");
    const again = await subHere(s.repo, ["capture", json.id]);
    expectOk(again);
    expect(again.stdout).not.toContain("INCOMPLETE");
    const t = addTarget(s, "t");
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", t]));
    expect(g(t, "log", "-1", "--format=%s").trim()).toBe("child edit");
    expect(readFileSync(join(t, "notes.txt"), "utf8")).toBe("child notes\n");
  });

  it("refuses a capture taken mid-merge, naming the merge and its commands", async () => {
    const s = withSide();
    const { json } = await runScriptHere(s.repo, `${CHILD_EDIT} && (git merge -q side || true)`);
    const t = addTarget(s, "t");
    const before = targetState(t, s.base);
    const show = await subHere(s.repo, ["show", json.id, "--json"]);
    const cap = (JSON.parse(show.stdout) as { capture: { inProgress: Record<string, unknown> } }).capture;
    expect(cap.inProgress).toMatchObject({ operation: "merge", incoming: s.side, conflicted: ["notes.txt"] });
    const refused = await subHere(s.repo, ["apply", json.id, "--target", t]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("in the middle of a git merge with conflicts in notes.txt");
    expect(refused.stderr).toContain(`\`git -C ${json.worktree} merge --abort\``);
    expect(refused.stderr).not.toContain("before the rebase");
    expect(targetState(t, s.base)).toEqual(before);
  });

  it("refuses a capture taken mid-cherry-pick, naming the cherry-pick and its commands", async () => {
    const s = withSide();
    const { json } = await runScriptHere(s.repo, `${CHILD_EDIT} && (git cherry-pick side || true)`);
    const t = addTarget(s, "t");
    const before = targetState(t, s.base);
    expect((await subHere(s.repo, ["list"])).stdout).toContain(
      "INCOMPLETE (cherry-pick in progress, 1 conflicted)",
    );
    const refused = await subHere(s.repo, ["apply", json.id, "--target", t]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("in the middle of a git cherry-pick");
    expect(refused.stderr).toContain(`\`git -C ${json.worktree} cherry-pick --abort\``);
    expect(targetState(t, s.base)).toEqual(before);
  });

  it("leaves a clean capture alone, a Markdown heading underline included", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(
      s.repo,
      "echo done > done.txt && git add done.txt && git commit -qm done && printf 'Title\\n=======\\n' > doc.md",
    );
    const show = await subHere(s.repo, ["show", json.id]);
    expect(show.stdout).not.toMatch(/INCOMPLETE|CONFLICT MARKERS/);
    expect((await subHere(s.repo, ["list"])).stdout).not.toMatch(/INCOMPLETE|conflict markers/);
    const t = addTarget(s, "t");
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", t]));
    expect(readFileSync(join(t, "doc.md"), "utf8")).toBe("Title\n=======\n");
  });

  it("applies a file that is meant to hold conflict markers only with --allow-conflict-markers", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(
      s.repo,
      "printf '<<<<<<< ours\\nx\\n=======\\ny\\n>>>>>>> theirs\\n' > fixture.txt",
    );
    const t = addTarget(s, "t");
    const refused = await subHere(s.repo, ["apply", json.id, "--target", t]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("adds conflict markers to fixture.txt");
    const allowed = await subHere(s.repo, ["apply", json.id, "--target", t, "--allow-conflict-markers"]);
    expectOk(allowed);
    expect(allowed.stdout).toContain("accepted with --allow-conflict-markers");
    expect(readFileSync(join(t, "fixture.txt"), "utf8")).toContain(">>>>>>> theirs");
  });
});
