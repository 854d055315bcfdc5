import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { defaultWorktreeRoot } from "../../src/subagents/lifecycle/create.js";
import { TANDEM_BIN } from "../helpers/cli.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, initRepo } from "../helpers/repo.js";
import {
  addTarget,
  expectOk,
  type RunJson,
  runScript,
  runScriptHere,
  subHere,
  subRepo,
} from "./sub-fixture.js";

const RUN_KEYS = ["id", "name", "branch", "worktree", "base", "head", "childExitCode", "capture", "applied"];
const CAPTURE_KEYS = ["id", "commitCount", "hadUncommittedChanges", "worktreePatchBytes", "uncaptured"];

describe("sub run", () => {
  it("prints exactly one JSON object with the contract's keys, and nothing on stderr off a TTY", async () => {
    const s = subRepo();
    // The process's output off a TTY is the contract here: the binary, not the in-process CLI.
    const { res, json } = runScript(s.repo, "echo hi; echo new > n.txt; git add n.txt; git commit -qm c", [
      "--name",
      "my child",
    ]);
    expectOk(res);
    expect(res.stderr).toBe("");
    expect(Object.keys(json)).toEqual(RUN_KEYS);
    expect(Object.keys(json.capture!)).toEqual(CAPTURE_KEYS);
    expect(json).toMatchObject({
      name: "my child",
      branch: `tandem/sub/${json.id}`,
      base: s.base,
      childExitCode: 0,
      applied: null,
      capture: { commitCount: 1, hadUncommittedChanges: false, worktreePatchBytes: 0, uncaptured: [] },
    });
    expect(g(json.worktree, "rev-parse", "HEAD").trim()).toBe(json.head);
    expect(g(s.repo, "rev-parse", json.branch).trim()).toBe(json.head);
    const log = readFileSync(join(s.repo, ".git", "tandem", "subagents", `${json.id}.log`), "utf8");
    expect(log).toContain("hi\n");
    // The name works wherever an id does.
    expect(JSON.parse((await subHere(s.repo, ["show", "my child", "--json"])).stdout).sub.id).toBe(json.id);
  });

  it("names the next steps by the --name given, quoted for a shell, and by id without one", async () => {
    const s = subRepo();
    const named = await subHere(s.repo, ["run", "--name", "fix", "--", "sh", "-c", "echo a > a.txt"]);
    expect(named.stdout).toMatch(/^next {7}`\S*tandem sub apply fix` {3}· {3}`\S*tandem sub remove fix`$/m);
    const spaced = await subHere(s.repo, ["run", "--name", "bob's fix", "--", "true"]);
    expect(spaced.stdout).toContain(`tandem sub apply 'bob'\\''s fix'`);
    // The quoted name works as typed in a shell.
    expectOk(await cli(["sub", "show", "bob's fix"], { cwd: s.repo }));
    const plain = (await runScriptHere(s.repo, "true")).json;
    const again = await subHere(s.repo, ["run", "--", "true"]);
    expect(again.stdout).toMatch(/^next {7}`\S*tandem sub apply sub_[0-9a-f]{8}` /m);
    expect(plain.name).toBeNull();
  });

  it("records a clean child with no dirty fields and applies it as nothing to do", async () => {
    const s = subRepo();
    const { res, json } = await runScriptHere(s.repo, "true");
    expectOk(res);
    expect(json.capture).toMatchObject({
      commitCount: 0,
      hadUncommittedChanges: false,
      worktreePatchBytes: 0,
      uncaptured: [],
    });
    const shown = JSON.parse((await subHere(s.repo, ["show", json.id, "--json"])).stdout);
    expect(shown.capture).toMatchObject({ mboxBlob: null, patchBlob: null, patchBytes: 0, dirtyPaths: [] });
    const applied = await subHere(s.repo, ["apply", json.id]);
    expectOk(applied);
    expect(applied.stdout).toMatch(/nothing to apply/);
  });

  it("registers an exec child as a sub-agent session of the caller", async () => {
    const s = subRepo();
    const { json } = await runScriptHere(
      s.repo,
      'tandem_session="$TANDEM_SESSION"; echo "$TANDEM_SUBAGENT $TANDEM_SESSION" > who.txt',
    );
    const who = readFileSync(join(json.worktree, "who.txt"), "utf8").trim().split(" ");
    expect(who[0]).toBe(json.id);
    const sessions = JSON.parse((await cli(["sessions", "--all", "--json"], { cwd: s.repo })).stdout) as {
      id: string;
      kind: string;
      client: string;
      ended: boolean;
    }[];
    expect(sessions.find((x) => x.id === who[1])).toMatchObject({
      kind: "subagent",
      client: "exec",
      ended: true,
    });
  });

  it("keeps the worktree and still captures a child that exits non-zero", async () => {
    const s = subRepo();
    const { res, json } = await runScriptHere(s.repo, "echo partial > half.txt; exit 3");
    expect(res.code).toBe(1);
    expect(json.childExitCode).toBe(3);
    expect(json.capture).toMatchObject({ hadUncommittedChanges: true, uncaptured: [] });
    expect(json.capture!.worktreePatchBytes).toBeGreaterThan(0);
    expect(existsSync(join(json.worktree, "half.txt"))).toBe(true);
    expect((await subHere(s.repo, ["show", json.id])).stdout).toMatch(/exited with 3/);
    // --apply never applies a failed child on its own.
    const again = await runScriptHere(s.repo, "echo x > y.txt; exit 1", ["--apply"]);
    expect(again.json.applied).toMatchObject({ ok: false, outcome: "refused" });
    expect(existsSync(join(s.repo, "y.txt"))).toBe(false);
  });

  it("applies and removes with --apply --rm", async () => {
    const s = subRepo();
    const { res, json } = await runScriptHere(
      s.repo,
      "echo a > a.txt; git add a.txt; git commit -qm 'add a'; echo d > d.txt",
      ["--apply", "--rm"],
    );
    expectOk(res);
    expect(json.applied).toMatchObject({
      ok: true,
      outcome: "applied",
      commitsApplied: 1,
      worktreePatchApplied: true,
    });
    expect(readFileSync(join(s.repo, "d.txt"), "utf8")).toBe("d\n");
    expect(existsSync(json.worktree)).toBe(false);
    expect(g(s.repo, "branch", "--list", json.branch).trim()).toBe("");
  });

  it("forwards Ctrl-C to the child, keeps its worktree and captures what it left", async () => {
    const s = subRepo();
    const proc = spawn(
      process.execPath,
      [TANDEM_BIN, "sub", "run", "--json", "--", "sh", "-c", "echo started > started.txt; sleep 30"],
      {
        cwd: s.repo,
        env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    proc.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => proc.on("exit", resolve));
    const wtRoot = defaultWorktreeRoot(join(s.repo, ".git", "tandem"), process.env);
    let started: string | null = null;
    for (let i = 0; i < 200 && !started; i++) {
      await sleep(50);
      const ids = existsSync(wtRoot) ? readdirSync(wtRoot) : [];
      started = ids.find((id) => existsSync(join(wtRoot, id, "started.txt"))) ?? null;
    }
    expect(started).not.toBeNull();
    // While the child runs, apply refuses.
    expect((await subHere(s.repo, ["apply", started!])).stderr).toMatch(/still running/);
    proc.kill("SIGINT");
    expect(await exited).toBe(1);
    const json = JSON.parse(stdout) as RunJson;
    expect(json.childExitCode).toBeNull();
    expect(json.capture).toMatchObject({ hadUncommittedChanges: true, uncaptured: [] });
    expect(existsSync(join(json.worktree, "started.txt"))).toBe(true);
    expect((await subHere(s.repo, ["show", json.id])).stdout).toMatch(/interrupted \(SIGINT\)/);
    expectOk(await subHere(s.repo, ["apply", json.id]));
    expect(readFileSync(join(s.repo, "started.txt"), "utf8")).toBe("started\n");
  });

  it("stops a child at --timeout and still captures it", async () => {
    const s = subRepo();
    const { res, json } = await runScriptHere(s.repo, "echo early > early.txt; sleep 30", [
      "--timeout",
      "0.5",
    ]);
    expect(res.code).toBe(1);
    expect(json.childExitCode).toBeNull();
    expect(json.capture).toMatchObject({ hadUncommittedChanges: true });
    expect((await subHere(s.repo, ["show", json.id])).stdout).toMatch(/timed out/);
  });

  it("reports a dirty submodule and an embedded repository as not captured, and refuses to apply or remove", async () => {
    const s = subRepo();
    const lib = initRepo(join(s.root, "lib"), { "file.txt": "lib\n" });
    g(s.repo, "submodule", "add", "-q", lib, "lib");
    g(s.repo, "commit", "-q", "-m", "add lib");
    const script = [
      "git -c protocol.file.allow=always submodule update --init -q",
      "echo changed >> lib/file.txt",
      "mkdir emb && cd emb && git init -q && echo y > f.txt",
      "cd .. && echo fine > ok.txt",
    ].join(" && ");
    const { res, json } = await runScriptHere(s.repo, script);
    expect(res.code).toBe(1);
    expect(json.capture!.uncaptured).toEqual([
      { reason: "dirty-submodule", paths: ["lib"] },
      { reason: "embedded-repository", paths: ["emb"] },
    ]);
    const applied = await subHere(s.repo, ["apply", json.id]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toMatch(
      /dirty-submodule: lib; embedded-repository: emb.*--acknowledge-uncaptured/,
    );
    expect(existsSync(join(s.repo, "ok.txt"))).toBe(false);
    const removed = await subHere(s.repo, ["remove", json.id]);
    expect(removed.code).toBe(1);
    expect(removed.stderr).toMatch(/worktree is its only copy/);
    expect(existsSync(json.worktree)).toBe(true);
    // Acknowledged, the rest applies and the worktree may go.
    const target = addTarget(s, "t", g(s.repo, "rev-parse", "HEAD").trim());
    const ack = await subHere(s.repo, ["apply", json.id, "--target", target, "--acknowledge-uncaptured"]);
    expectOk(ack);
    expect(ack.stdout).toMatch(/warning: applying without work that was not captured/);
    expect(readFileSync(join(target, "ok.txt"), "utf8")).toBe("fine\n");
    expectOk(await subHere(s.repo, ["remove", json.id]));
  });

  it("keeps a grandchild's artifact when the middle worktree is removed", async () => {
    const s = subRepo();
    const nested = `"${process.execPath}" "${TANDEM_BIN}" sub run --name grandchild --json -- sh -c "echo g > g.txt && git add g.txt && git commit -qm grandchild && echo gd > gd.txt" > nested.json`;
    const middle = await runScriptHere(s.repo, `${nested}; rm nested.json`);
    expectOk(middle.res);
    const grand = JSON.parse((await subHere(s.repo, ["show", "grandchild", "--json"])).stdout);
    const middleShown = JSON.parse((await subHere(s.repo, ["show", middle.json.id, "--json"])).stdout);
    expect(grand.sub.parentSession).toBe(middleShown.sub.childSession);
    expectOk(await subHere(s.repo, ["remove", middle.json.id]));
    expect(existsSync(middle.json.worktree)).toBe(false);
    expectOk(await subHere(s.repo, ["apply", "grandchild"]));
    expect(readFileSync(join(s.repo, "g.txt"), "utf8")).toBe("g\n");
    expect(readFileSync(join(s.repo, "gd.txt"), "utf8")).toBe("gd\n");
    expect(g(s.repo, "log", "-1", "--format=%s").trim()).toBe("grandchild");
  });

  it("refuses bad usage with exit 2", async () => {
    const s = subRepo();
    expect((await subHere(s.repo, ["run", "--client", "nope", "--", "true"])).code).toBe(2);
    expect((await subHere(s.repo, ["run", "--base", "no-such-ref", "--", "true"])).code).toBe(2);
    expect((await subHere(s.repo, ["run", "--rm", "--", "true"])).code).toBe(2);
    expect((await subHere(s.repo, ["apply", "sub_nothere"])).code).toBe(2);
    expect((await subHere(s.repo, ["run", "--session", "nobody", "--", "true"])).code).toBe(2);
  });
});

describe("sub run's child environment", () => {
  it("names the child's worktree in PWD, not the caller's directory (opencode takes its project from $PWD)", async () => {
    const s = subRepo();
    const script = "require('fs').writeFileSync('pwd.txt', String(process.env.PWD))";
    const res = await subHere(s.repo, ["run", "--json", "--", process.execPath, "-e", script], {
      PWD: s.repo,
    });
    expectOk(res);
    const json = JSON.parse(res.stdout) as RunJson;
    expect(readFileSync(join(json.worktree, "pwd.txt"), "utf8")).toBe(json.worktree);
  });
});
