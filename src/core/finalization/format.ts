import { PLAIN, type Printer, printed, spanned } from "../printed.js";
/**
 * The end-turn failure message (docs/product.md §5): every problem grouped by kind, each group saying
 * what is wrong and what to do. Remedies only ever ask for Git operations in Git repositories;
 * a non-Git path gets a configuration or relocation remedy instead.
 */
import type {
  DirtyFinding,
  Findings,
  GitlinkMismatch,
  HiddenFinding,
  IgnoredPath,
  StashFinding,
  UnpushedFinding,
  UnreachedFinding,
  UnsupportedFinding,
  UnverifiableFinding,
} from "./verdict.js";

/** `p` spells the Tandem commands for the reader: the agent whose end-turn check failed. */
export function formatFindings(f: Findings, p: Printer = PLAIN): string {
  const groups = [
    f.incompleteHistory ? incompleteGroup(p) : null,
    dirtyGroup(f.dirty),
    stashGroup(f.stashed),
    hiddenGroup(f.hidden),
    unreachedGroup(f.unreached),
    unpushedGroup(f.unpushed, p),
    gitlinkGroup(f.gitlinkMismatch),
    unsupportedGroup(f.unsupported),
    unverifiableGroup(f.unverifiable),
  ].filter((g): g is string => g !== null);
  if (groups.length === 0) return "";
  const head =
    "tandem: end-turn check failed: this session's own work is not finalized (no status was recorded).";
  const note = ignoredNote(f.ignored);
  const rerun = `Then run ${spanned(p, "status", "--end-turn")} again.`;
  return `${[head, ...groups, ...(note ? [note] : []), rerun].join("\n\n")}\n`;
}

function stashGroup(stashed: StashFinding[]): string | null {
  if (stashed.length === 0) return null;
  return group(
    `Work left in stash entries this session created (${stashed.length}):`,
    stashed.map((s) => `${s.repo}: ${s.ref} ${s.sha.slice(0, 12)} ${s.message}`),
    [
      ...stashed.map(
        (s) =>
          `git -C ${shq(s.repo)} stash pop ${s.ref} and commit the changes, or git -C ${shq(s.repo)} stash drop ${s.ref} if it is not needed`,
      ),
      "stash@{n} numbers shift as entries come and go: check `git stash list` first",
    ],
  );
}

function hiddenGroup(hidden: HiddenFinding[]): string | null {
  if (hidden.length === 0) return null;
  return group(
    `Owned files whose changes Git is told not to show (${hidden.length}):`,
    hidden.map((h) => `${h.repo}: ${h.path} (${h.flags.join(", ")})`),
    [
      ...hidden.map(
        (h) =>
          `git -C ${shq(h.repo)} update-index ${h.flags.map((f) => `--no-${f}`).join(" ")} -- ${shq(h.path)}`,
      ),
      "then commit and push what `git status` shows for them",
    ],
  );
}

function unreachedGroup(lost: UnreachedFinding[]): string | null {
  if (lost.length === 0) return null;
  return group(
    `Owned work that no remote-tracking ref reaches (${lost.length}):`,
    lost.map((u) => `${u.repo}: ${u.path}: last committed in ${u.sha.slice(0, 12)}, ${describeWhere(u)}`),
    [
      ...new Set(lost.map(restoreRemedy)),
      "to drop that version on purpose, publish it anyway so no version is lost: git -C <repo> push <remote> <sha>:refs/heads/<a name of its own>",
    ],
  );
}

function describeWhere(u: UnreachedFinding): string {
  if (u.kind === "branch") return `only on the local branch ${u.branches.join(", ")}`;
  if (u.kind === "stash") return "a stash entry this session created and that was dropped";
  return "only in the reflog (a reset or checkout left it behind)";
}

function restoreRemedy(u: UnreachedFinding): string {
  const r = shq(u.repo);
  if (u.kind === "branch")
    return `push it: git -C ${r} push -u <remote> ${u.branches[0]} (or merge it into your pushed branch and push)`;
  if (u.kind === "stash") return `restore it: git -C ${r} stash apply ${u.sha}, then commit and push`;
  return `restore it: git -C ${r} cherry-pick ${u.sha} (or keep it: git -C ${r} branch rescue-${u.sha.slice(0, 8)} ${u.sha}), then push`;
}

/** Not a failure: ignored files are not Git work, but the session should know they are not saved. */
function ignoredNote(ignored: IgnoredPath[]): string | null {
  if (ignored.length === 0) return null;
  return group(
    `Ignored by Git, not finalized (${ignored.length}; this does not fail the check):`,
    ignored.map((i) => `${i.repo}: ${i.path}`),
    ["nothing to do if they are build output or local files; otherwise un-ignore them and commit"],
  );
}

function group(title: string, items: string[], remedy: string[]): string {
  return [title, ...items.map((i) => `  - ${i}`), ...remedy.map((r) => `  -> ${r}`)].join("\n");
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function incompleteGroup(p: Printer): string {
  return group(
    "Claim history incomplete:",
    ["the ledger has no session.started event for this session, so the files it owns cannot all be listed"],
    [
      `run ${spanned(p, "doctor")} to check the state store; finish and verify the work from a new agent session`,
    ],
  );
}

function dirtyGroup(dirty: DirtyFinding[]): string | null {
  if (dirty.length === 0) return null;
  const repos = [...new Set(dirty.map((d) => d.repo))];
  return group(
    `Uncommitted changes in files this session owns (${dirty.length}):`,
    dirty.map((d) => `${d.repo}: ${d.path} (${describeState(d.state)})`),
    [
      `commit them and push: ${repos.map((r) => `git -C ${shq(r)} add -- <paths> && git -C ${shq(r)} commit`).join("; ")}`,
      "or undo changes you do not mean to keep (git restore <path>, or delete the untracked file)",
      "files other sessions own are not listed and are not yours to commit",
    ],
  );
}

function describeState(xy: string): string {
  if (xy === "??") return "untracked";
  const staged = xy[0] !== "." && xy[0] !== " ";
  const unstaged = xy[1] !== "." && xy[1] !== " ";
  if (xy[0] === "U" || xy[1] === "U" || xy === "AA" || xy === "DD") return "unmerged";
  return staged && unstaged ? "staged and unstaged changes" : staged ? "staged" : "modified";
}

function unpushedGroup(unpushed: UnpushedFinding[], p: Printer): string | null {
  if (unpushed.length === 0) return null;
  return group(`Commits not on any remote (${unpushed.length}):`, unpushed.map(describeUnpushed), [
    ...unpushed.map((u) => pushRemedy(u, p)),
    "Tandem only reads local remote-tracking refs; it never fetches or pushes",
  ]);
}

function describeUnpushed(u: UnpushedFinding): string {
  const where = `${u.repo} (${u.branch ?? "detached HEAD"})`;
  if ("ahead" in u)
    return `${where}: ${count(u.ahead, "commit")} ahead of ${u.upstream}${u.behind ? `, ${u.behind} behind (the remote moved)` : ""}`;
  return `${where}: ${u.reason}`;
}

function pushRemedy(u: UnpushedFinding, p: Printer): string {
  const r = shq(u.repo);
  const land = printed(p, "--root", u.repo, "land");
  // A push onto a moved remote is rejected, and pulling in a shared checkout is unsafe: land instead.
  if ("ahead" in u && u.behind)
    return `${land} (rebases privately and pushes; a plain push would be rejected)`;
  if ("ahead" in u) return `git -C ${r} push (rejected because the remote moved? ${land})`;
  if (u.branch === null) {
    return `git -C ${r} push <remote> HEAD:refs/heads/<branch> (or check out a branch that is already pushed)`;
  }
  return `git -C ${r} push -u <remote> ${u.branch}`;
}

function gitlinkGroup(links: GitlinkMismatch[]): string | null {
  if (links.length === 0) return null;
  const short = (oid: string | null) => (oid === null ? "none" : oid.slice(0, 12));
  return group(
    `Submodule pointers that disagree (${links.length}):`,
    links.map(
      (g) =>
        `${g.superproject}: ${g.path}: superproject HEAD ${short(g.parentHead)}, index ${short(g.parentIndex)}, submodule HEAD ${short(g.childHead)}`,
    ),
    [
      ...links.map(
        (g) =>
          `record the submodule's commit in the superproject and push both: git -C ${shq(g.superproject)} add -- ${shq(g.path)} && git -C ${shq(g.superproject)} commit && git -C ${shq(g.superproject)} push`,
      ),
      "or, if the submodule should not have moved, check out the recorded commit in it (git submodule update)",
    ],
  );
}

function unsupportedGroup(items: UnsupportedFinding[]): string | null {
  if (items.length === 0) return null;
  return group(
    `Owned paths outside what the end-turn check may verify (${items.length}):`,
    items.map((u) => `${u.path}: ${u.reason}`),
    [...new Set(items.map((u) => u.remedy))],
  );
}

function unverifiableGroup(items: UnverifiableFinding[]): string | null {
  if (items.length === 0) return null;
  return group(
    `Could not be verified (${items.length}):`,
    items.map((u) => `${"repo" in u ? u.repo : u.path}: ${u.reason}`),
    [
      "fix what Git reported (run git status in that repository to see it); Tandem never counts what it could not check as done",
    ],
  );
}

/** Quotes a path for a copy-pasteable shell command only when it needs it. */
function shq(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
