import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureSession } from "../../src/sessions/register.js";
import { openDb } from "../../src/store/db.js";
import { appendOne, write } from "../../src/store/ledger/append.js";
import { PIN, TANDEM_BIN, tandem } from "../helpers/cli.js";
import { cli } from "../helpers/in-process-cli.js";
import { generateLedger } from "../helpers/ledger-gen.js";
import { patient } from "../helpers/patience.js";
import { initRepo, tempDir } from "../helpers/repo.js";

function repoWithLedger(events = 0) {
  const repo = initRepo(join(tempDir(), "repo"));
  const db = openDb(join(repo, ".git", "tandem"));
  if (events) generateLedger(db, events);
  return { repo, db };
}

describe("the tandem command line", () => {
  it("prints its version and help", async () => {
    const dir = tempDir();
    // The version is stamped into the bundle at build time (in-process it reads "dev"): the binary's.
    expect(tandem(["--version"], { cwd: dir })).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    const help = await cli(["--help"], { cwd: dir });
    expect(help.code).toBe(0);
    for (const cmd of ["events", "sessions", "doctor"]) expect(help.stdout).toContain(cmd);
    expect((await cli(["events", "--help"], { cwd: dir })).stdout).toMatch(/Example:\n\s+tandem events/);
  });

  it("answers bad usage with one line and exit 2", async () => {
    const dir = tempDir();
    for (const args of [["bogus"], ["events", "--nope"], ["events", "--since", "x"]]) {
      const res = await cli(args, { cwd: dir });
      expect(res.code).toBe(2);
      expect(res.stderr.trim().split("\n")).toHaveLength(1);
      expect(res.stderr).toMatch(/^tandem: /);
    }
  });

  it("explains what to do outside a repository", async () => {
    const res = await cli(["sessions"], { cwd: tempDir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/not inside a Git repository .*pass --root DIR/);
  });

  it("prints events as JSON lines with ISO timestamps and session names, filtered by kind, session and seq", async () => {
    const { repo, db } = repoWithLedger(300);
    const res = await cli(["events", "--json"], { cwd: repo });
    expect(res.code).toBe(0);
    const lines = res.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(300);
    expect(Object.keys(lines[0])).toEqual(["seq", "ts", "session", "name", "client", "kind", "data"]);
    expect(lines[0].ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines[0].name).toMatch(/^agent-/);

    const claims = (await cli(["events", "--json", "--kind", "claim.*"], { cwd: repo })).stdout
      .trim()
      .split("\n");
    expect(claims.every((l) => JSON.parse(l).kind.startsWith("claim."))).toBe(true);
    const name = lines[0].name as string;
    const mine = (await cli(["events", "--json", "--session", name], { cwd: repo })).stdout
      .trim()
      .split("\n");
    expect(mine.every((l) => JSON.parse(l).name === name)).toBe(true);
    const since = (await cli(["events", "--json", "--since", "290"], { cwd: repo })).stdout
      .trim()
      .split("\n");
    expect(since.map((l) => JSON.parse(l).seq)).toEqual([291, 292, 293, 294, 295, 296, 297, 298, 299, 300]);
    expect(await cli(["events", "--session", "nobody"], { cwd: repo })).toMatchObject({ code: 2 });
    db.close();
  });

  it("says so when there are no events, or none match the filter", async () => {
    const bare = initRepo(join(tempDir(), "repo"));
    expect(await cli(["events"], { cwd: bare })).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^No events recorded yet/),
    });
    expect((await cli(["events", "--json"], { cwd: bare })).stdout).toBe("");
    const { repo, db } = repoWithLedger(20);
    expect((await cli(["events", "--since", "999"], { cwd: repo })).stdout).toBe(
      "No events match --since 999.\n",
    );
    db.close();
  });

  it("selects kinds by glob and refuses a --kind that matches no known kind, listing them", async () => {
    const { repo, db } = repoWithLedger(300);
    const all = (await cli(["events", "--json"], { cwd: repo })).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).kind as string);
    const glob = (await cli(["events", "--json", "--kind", "c*m.*"], { cwd: repo })).stdout
      .trim()
      .split("\n");
    expect(glob.map((l) => JSON.parse(l).kind)).toEqual(all.filter((k) => k.startsWith("claim.")));
    const none = await cli(["events", "--kind", "sub*x"], { cwd: repo });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^tandem: --kind sub\*x matches no event kind; use one of .*claim\.acquired.*subagent\.created/,
    );
    db.close();
  });

  it("follows new events as they are recorded", async () => {
    const { repo, db } = repoWithLedger();
    const { session } = write(db, (tx) =>
      ensureSession(tx, {
        client: "codex",
        nativeId: "n1",
        kind: "session",
        parentId: null,
        agentPid: null,
        agentPidStart: null,
        cwd: repo,
      }),
    );
    const child = spawn(process.execPath, [TANDEM_BIN, "events", "--follow", "--json"], { cwd: repo });
    let out = "";
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
    });
    // Append once the follower has printed what was there: it is following by then.
    const started = Date.now() + patient(10_000);
    while (!out.includes("session.started") && Date.now() < started)
      await new Promise((r) => setTimeout(r, 50));
    appendOne(db, { kind: "task.set", session: session.id, data: { text: "later" } });
    const deadline = Date.now() + patient(10_000);
    while (!out.includes("later") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    child.kill("SIGINT");
    const kinds = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).kind);
    expect(kinds).toEqual(["session.started", "task.set"]);
    db.close();
  });

  it("lists live sessions, and stale ones only with --all", async () => {
    const { repo, db } = repoWithLedger();
    const old = Date.now() - 3_600_000;
    write(db, (tx) => {
      ensureSession(tx, {
        client: "codex",
        nativeId: "fresh",
        kind: "session",
        parentId: null,
        agentPid: null,
        agentPidStart: null,
        cwd: repo,
      });
      ensureSession(
        tx,
        {
          client: "cursor",
          nativeId: "old",
          kind: "session",
          parentId: null,
          agentPid: null,
          agentPidStart: null,
          cwd: repo,
        },
        old,
      );
    });
    const live = JSON.parse((await cli(["sessions", "--json"], { cwd: repo })).stdout);
    expect(live.map((s: { nativeId: string }) => s.nativeId)).toEqual(["fresh"]);
    const all = JSON.parse((await cli(["sessions", "--all", "--json"], { cwd: repo })).stdout);
    expect(all.map((s: { nativeId: string; live: boolean }) => [s.nativeId, s.live])).toEqual([
      ["fresh", true],
      ["old", false],
    ]);
    const text = (await cli(["sessions", "--all"], { cwd: repo })).stdout;
    expect(text).toMatch(/^NAME\s+CLIENT/);
    expect(text).toMatch(/cursor\s+session\s+stale/);
    db.close();
  });

  it("doctor reports schema, integrity and counts, and --rebuild replays identically", async () => {
    const { repo, db } = repoWithLedger(400);
    db.close();
    // A wired repository: one never initialised is itself a problem doctor reports (exit 1).
    expect((await cli(["init", ...PIN, "--clients", "claude-code"], { cwd: repo })).code).toBe(0);
    const res = await cli(["doctor"], { cwd: repo });
    expect(res.code, res.stdout).toBe(0);
    expect(res.stdout).toMatch(/✓ schema: schema version \d/);
    expect(res.stdout).toMatch(/✓ integrity/);
    expect(res.stdout).toMatch(/✓ events: every event matches its schema/);
    // The 400 generated events and init's own `wiring.recorded` (decision 0024).
    expect(res.stdout).toMatch(/events: 401, sessions: \d+, active claims: \d+/);
    const rebuilt = await cli(["doctor", "--rebuild", "--json"], { cwd: repo });
    expect(JSON.parse(rebuilt.stdout).rebuild).toEqual({ replayed: 401, identical: true });
  });
});
