import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LandResult } from "../../src/core/land/result.js";
import { eventDetail } from "../../src/watch/events.js";
import { fakeAgent, ledger } from "../helpers/hooks.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, writeFiles } from "../helpers/repo.js";
import { agentEditsHere, landJsonHere } from "./land-here.js";
import { commit, head, landAsync, landWorld, read, remoteHead, remoteSubjects } from "./land-world.js";

const checkEnv = (command: string, extra: Record<string, string> = {}) => ({
  TANDEM_LAND_CHECK: command,
  ...extra,
});

/** The upstream moved (b pushed b.txt), a has its own commit and a peer's dirty notes. */
async function diverged() {
  const w = landWorld();
  const a = w.checkout("a");
  const b = w.checkout("b");
  commit(b, { "b.txt": "b\n" }, "b's work");
  g(b, "push", "-q", "origin", "main");
  await agentEditsHere(a, "P", fakeAgent(), "notes.txt", "P's unsaved thoughts\n");
  return { w, a, b };
}

const landEvents = (repo: string) =>
  ledger(repo)
    .events.filter((e) => e.kind.startsWith("land."))
    .map((e) => `${e.kind} ${eventDetail(e, new Map(), repo)}`);

describe("land.check", () => {
  it("runs in a private worktree on the rebased result, and pushes when it passes", async () => {
    const { w, a } = await diverged();
    commit(a, { "a.txt": "a\n" }, "a's work");
    // Both sides' files must be there: the check sees the rebase, not the shared checkout.
    writeFiles(a, {
      ".tandem/config.jsonc":
        '{ "land": { "check": "test -f a.txt && test -f b.txt && test ! -e notes.txt.orig && pwd" } }',
    });
    const { code, result } = await landJsonHere(a);
    expect(code).toBe(0);
    expect(result).toMatchObject({ outcome: "pushed", rebased: true, commits: 1, checks: 1 });
    expect(remoteSubjects(w).slice(0, 2)).toEqual(["a's work", "b's work"]);
    expect(read(a, "notes.txt")).toBe("P's unsaved thoughts\n");
  });

  it("when it fails pushes nothing, changes nothing in the shared checkout, and reports its output's tail", async () => {
    const { w, a } = await diverged();
    const upstream = remoteHead(w);
    const mine = commit(a, { "a.txt": "a\n" }, "a's work");
    const status = g(a, "status", "--porcelain");
    const check = 'for i in $(seq 1 100); do echo "line $i"; done; echo "tests: 1 failed" >&2; exit 3';
    const { code, result } = await landJsonHere(a, checkEnv(check));
    expect(code).toBe(1);
    expect(result).toMatchObject({
      outcome: "check-failed",
      checks: 1,
      rejected: {
        commits: [{ subject: "a's work" }],
        check: { command: check, exitCode: 3, timedOut: false },
      },
    });
    const out = (result as Extract<LandResult, { outcome: "check-failed" }>).rejected.check.output;
    expect(out).toMatch(/tests: 1 failed$/);
    expect(out).toContain("line 100");
    expect(out).not.toContain("line 50\n");
    expect(remoteHead(w)).toBe(upstream);
    expect(head(a)).toBe(mine);
    expect(existsSync(join(a, "b.txt"))).toBe(false);
    expect(g(a, "status", "--porcelain")).toBe(status);
    expect(g(a, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
    expect(landEvents(a).at(-1)).toBe(
      `land.refused main: land.check failed (${check} exited 3) on 1 commit(s); nothing pushed`,
    );

    const human = await cli(["land"], { cwd: a, env: checkEnv(check) });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(
      "land.check failed; nothing was pushed and the shared checkout is unchanged.",
    );
    expect(human.stdout).toContain("exited 3; the end of its output:");
    expect(human.stdout).toContain("    tests: 1 failed");
    expect(human.stdout).toContain("Fix: make the check pass");
  });

  it("is stopped at its timeout, with its children, and the landing is refused saying so", async () => {
    const { w, a } = await diverged();
    const upstream = remoteHead(w);
    commit(a, { "a.txt": "a\n" }, "a's work");
    const pidFile = join(a, ".git", "check-child-pid");
    // A child of the check that would outlive a kill of the shell alone.
    const check = `sh -c 'echo $$ > ${pidFile}; exec sleep 3600' >/dev/null 2>&1 & echo started; wait`;
    const { code, result } = await landJsonHere(a, checkEnv(check, { TANDEM_LAND_CHECK_TIMEOUT: "1" }));
    expect(code).toBe(1);
    expect(result).toMatchObject({
      outcome: "check-failed",
      rejected: { check: { timedOut: true, exitCode: null, output: "started" } },
    });
    expect(remoteHead(w)).toBe(upstream);
    const human = await cli(["land"], {
      cwd: a,
      env: checkEnv("sleep 5", { TANDEM_LAND_CHECK_TIMEOUT: "1" }),
    });
    expect(human.stdout).toContain("`sleep 5` was stopped at land.checkTimeoutSeconds");
    // The child went with its group (gone, or a zombie waiting to be reaped).
    const child = Number(readFileSync(pidFile, "utf8"));
    await until(
      () => !existsSync(`/proc/${child}`) || / Z /.test(readFileSync(`/proc/${child}/stat`, "utf8")),
    );
  });

  it("bisects a failing batch: the commit that breaks it stays local on top, the others land", async () => {
    const { w, a } = await diverged();
    commit(a, { "one.txt": "1\n" }, "one");
    commit(a, { "bad.txt": "breaks the check\n" }, "breaks the build");
    commit(a, { "three.txt": "3\n" }, "three");
    commit(a, { "four.txt": "4\n" }, "four");
    const { code, result } = await landJsonHere(a, checkEnv("test ! -e bad.txt"));
    expect(code).toBe(1);
    expect(result).toMatchObject({
      outcome: "pushed",
      commits: 3,
      rejected: { commits: [{ subject: "breaks the build" }] },
    });
    expect(remoteSubjects(w).slice(0, 4)).toEqual(["four", "three", "one", "b's work"]);
    // The shared checkout has everything, the rejected commit one ahead of the upstream.
    expect(g(a, "log", "--format=%s", "-2").trim().split("\n")).toEqual(["breaks the build", "four"]);
    expect(g(a, "rev-parse", "HEAD~1").trim()).toBe(remoteHead(w));
    for (const f of ["one.txt", "bad.txt", "three.txt", "four.txt", "b.txt"])
      expect(existsSync(join(a, f))).toBe(true);
    expect(read(a, "notes.txt")).toBe("P's unsaved thoughts\n");
    expect(landEvents(a).at(-1)).toBe(
      "land.pushed main: 3 commit(s) rebased and pushed, 1 turned away by the check",
    );
  });

  it("lands the queue behind a running check as one batch: one check, every waiter told the result", async () => {
    const w = landWorld();
    const a = w.checkout("a");
    await agentEditsHere(a, "P", fakeAgent(), "notes.txt", "P's unsaved thoughts\n");
    commit(a, { "first.txt": "1\n" }, "first");
    const go = join(a, ".git", "check-may-finish");
    const running = join(a, ".git", "check-running");
    // The check holds the first landing until the test has seen the others queue behind it.
    const env = checkEnv(`touch ${running}; while [ ! -e ${go} ]; do sleep 0.05; done; echo checked`);
    const leader = landAsync(a, env);
    const queue = join(a, ".git", "tandem", "land-queue");
    await until(() => existsSync(running));
    commit(a, { "second.txt": "2\n" }, "second");
    const second = landAsync(a, env);
    commit(a, { "third.txt": "3\n" }, "third");
    const third = landAsync(a, env);
    await until(
      () => existsSync(queue) && readdirSync(queue).filter((n) => n.endsWith(".wait")).length === 2,
    );
    writeFileSync(go, "");
    const first = JSON.parse((await leader).stdout) as LandResult;
    expect(first).toMatchObject({ outcome: "pushed", commits: 1, checks: 1 });
    // The next to take the lock adopted the other waiter: one check for both.
    const [r2, r3] = (await Promise.all([second, third])).map((r) => JSON.parse(r.stdout) as LandResult);
    expect(r3).toMatchObject({ outcome: "pushed", commits: 2, checks: 1, batch: { waiters: 1 } });
    expect(r2).toMatchObject({ outcome: "pushed", commits: 2, checks: 1, batch: { waiters: 1 } });
    expect(r2!.batch).toEqual(r3!.batch);
    expect(remoteSubjects(w).slice(0, 3)).toEqual(["third", "second", "first"]);
    expect(ledger(a).events.filter((e) => e.kind === "land.pushed")).toHaveLength(2);
    expect(read(a, "notes.txt")).toBe("P's unsaved thoughts\n");
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
}
