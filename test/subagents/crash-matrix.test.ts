import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { g, writeFiles } from "../helpers/repo.js";
import {
  addTarget,
  expectOk,
  runScriptHere,
  type SubRepo,
  stagedNames,
  sub,
  subHere,
  subRepo,
  targetState,
} from "./sub-fixture.js";

/** Children of three shapes (docs/product.md §7, issue 6 crash matrix). */
const COMMITS =
  "echo one > c1.txt && git add c1.txt && git commit -qm 'child one' && printf 'bin\\000\\001' > bin.dat && git add bin.dat && git commit -qm 'child two'";
const DIRTY = "echo more >> README.md && echo new > 'new file.txt'";
const CHILDREN = {
  "commits only": { script: COMMITS, commits: 2, dirty: false },
  "uncommitted only": { script: DIRTY, commits: 0, dirty: true },
  both: { script: `${COMMITS} && ${DIRTY}`, commits: 2, dirty: true },
} as const;

const APPLY_POINTS = [
  "apply:before-am",
  "apply:after-am",
  "apply:after-worktree-patch",
  "apply:before-complete-record",
] as const;

interface OutcomeJson {
  ok: boolean;
  outcome: string;
  message: string;
}

/** `sub apply --json` (with `extra`), parsed. */
async function applyJson(s: SubRepo, id: string, dir: string, extra: string[] = []): Promise<OutcomeJson> {
  const r = await subHere(s.repo, ["apply", id, "--target", dir, "--json", ...extra]);
  return JSON.parse(r.stdout) as OutcomeJson;
}

const AGREEING: Record<string, string[]> = {
  "would-apply": ["applied", "nothing-to-apply"],
  "already-applied": ["already-applied"],
  refused: ["refused"],
  blocked: ["blocked"],
  failed: ["failed"],
};

/** The dry run said what the real apply then did: the same kind of outcome, and the same reason for a refusal. */
function expectAgreement(dry: OutcomeJson, real: OutcomeJson, label: string): void {
  expect(
    AGREEING[dry.outcome],
    `${label}: dry ${dry.outcome} vs real ${real.outcome}: ${real.message}`,
  ).toContain(real.outcome);
  if (!dry.ok) expect(dry.message.replace(/^dry run: /, ""), label).toBe(real.message);
}

/** The target's own work: unstaged and untracked always, staged where `git am` allows it. */
function ownWork(dir: string, staged: boolean): void {
  writeFiles(dir, { "notes.txt": "notes\nmine, unstaged\n", "mine.txt": "untracked of mine\n" });
  if (staged) {
    writeFiles(dir, { "staged.txt": "staged of mine\n" });
    g(dir, "add", "staged.txt");
  }
}

function reached(point: string, child: { commits: number; dirty: boolean }): boolean {
  if (point === "apply:before-am" || point === "apply:after-am") return child.commits > 0;
  if (point === "apply:after-worktree-patch") return child.dirty;
  return true;
}

/** What a target must look like after the child's work landed once, on top of its own work. */
function expectLanded(dir: string, s: SubRepo, child: { commits: number; dirty: boolean }, staged: boolean) {
  const state = targetState(dir, s.base);
  expect(state.log.map((l) => l.split(" ").slice(0, -1).join(" "))).toEqual(
    child.commits ? ["child one", "child two"] : [],
  );
  expect(stagedNames(dir)).toEqual(staged ? ["staged.txt"] : []);
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("notes\nmine, unstaged\n");
  expect(Object.keys(state.untracked)).toEqual(
    [...(child.dirty ? ["new file.txt"] : []), "mine.txt", ...(staged ? [] : [])].sort(),
  );
  expect(readFileSync(join(dir, "README.md"), "utf8")).toBe(child.dirty ? "hello\nmore\n" : "hello\n");
  if (child.commits) expect(readFileSync(join(dir, "bin.dat"))).toEqual(Buffer.from("bin\0\x01"));
  return state;
}

describe.each(Object.entries(CHILDREN))("crash matrix: a child with %s", (_label, child) => {
  // Eight crashed applies, each with a dry run and a retry: over a minute on a loaded machine.
  it("ends every crashed-then-retried apply exactly like an uninterrupted one", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(s.repo, child.script);
    expect(json.capture).toMatchObject({ commitCount: child.commits, hadUncommittedChanges: child.dirty });
    const staged = child.commits === 0;
    const ref = addTarget(s, "reference");
    ownWork(ref, staged);
    expectOk(await subHere(s.repo, ["apply", json.id, "--target", ref]));
    const expected = expectLanded(ref, s, child, staged);

    for (const point of APPLY_POINTS) {
      const dir = addTarget(s, point.replace(":", "-"));
      ownWork(dir, staged);
      const crashed = sub(s.repo, ["apply", json.id, "--target", dir], { TANDEM_TEST_CRASH_AT: point });
      expect(crashed.code, `${point}: ${crashed.stderr}`).toBe(reached(point, child) ? -1 : 0);
      // A dry run after the crash follows the recorded state, never touches the target, and
      // says what the real apply then does.
      const before = targetState(dir, s.base);
      const dry = await applyJson(s, json.id, dir, ["--dry-run"]);
      expect(dry.ok, `${point}: ${dry.message}`).toBe(true);
      expect(targetState(dir, s.base)).toEqual(before);
      const retry = await applyJson(s, json.id, dir);
      expectAgreement(dry, retry, point);
      expect(retry.ok, `${point}: ${retry.message}`).toBe(true);
      expect(targetState(dir, s.base), point).toEqual(expected);
      expectLanded(dir, s, child, staged);
      const again = await subHere(s.repo, ["apply", json.id, "--target", dir]);
      expect(again.stdout, point).toMatch(/already applied/);
      expect(targetState(dir, s.base)).toEqual(expected);
    }
  });

  it.each(["capture:after-blob-write", "capture:before-record"])(
    "keeps the worktree when `sub run` dies at %s, and `sub capture` recovers everything",
    async (point) => {
      const s = subRepo();
      const res = sub(s.repo, ["run", "--json", "--", "sh", "-c", child.script], {
        TANDEM_TEST_CRASH_AT: point,
      });
      expect(res.code).toBe(-1);
      const [listed] = JSON.parse((await subHere(s.repo, ["list", "--json"])).stdout) as {
        sub: { id: string; worktree: string };
        capture: unknown;
      }[];
      expect(listed!.capture).toBeNull();
      const id = listed!.sub.id;
      expect((await subHere(s.repo, ["apply", id])).stderr).toMatch(/no capture yet/);
      const cap = await subHere(s.repo, ["capture", id, "--json"]);
      expectOk(cap);
      expect(JSON.parse(cap.stdout)).toMatchObject({
        commitCount: child.commits,
        hadUncommittedChanges: child.dirty,
      });
      const dir = addTarget(s, "target");
      ownWork(dir, child.commits === 0);
      expectOk(await subHere(s.repo, ["apply", id, "--target", dir]));
      expectLanded(dir, s, child, child.commits === 0);
    },
  );
});

describe("dry run after a crash", () => {
  it("refuses in the dry run exactly as the real apply does when a file of the patch was edited after a crash", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(s.repo, CHILDREN.both.script);
    const dir = addTarget(s, "edited");
    const crashed = sub(s.repo, ["apply", json.id, "--target", dir], {
      TANDEM_TEST_CRASH_AT: "apply:after-am",
    });
    expect(crashed.code).toBe(-1);
    writeFiles(dir, { "README.md": "hello\nedited in the target\n" });
    const dry = await applyJson(s, json.id, dir, ["--dry-run"]);
    const real = await applyJson(s, json.id, dir);
    expect(real).toMatchObject({ ok: false, outcome: "refused" });
    expect(real.message).toMatch(/uncommitted changes in paths the uncommitted patch touches: README\.md/);
    expectAgreement(dry, real, "edited after apply:after-am");
  });
});
