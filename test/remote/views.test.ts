import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";
import { bareWorld, setConfig } from "./remote-world.js";

// A person's shell (no session to show): `tandem status` gives the overview.
const PLAIN = {
  // What these views show is on by default; the test setup turns hooks' background rounds off.
  TANDEM_REMOTE: "1",
  TANDEM_SERVER: "0",
  TANDEM_SESSION: undefined,
  CLAUDE_CODE_SESSION_ID: undefined,
  CODEX_THREAD_ID: undefined,
};

const run = (repo: string, ...args: string[]) => cli(args, { cwd: repo, env: PLAIN });

interface Check {
  check: string;
  level: string;
  detail: string;
  fix?: string;
}

async function remoteCheck(repo: string): Promise<Check | undefined> {
  const r = await run(repo, "doctor", "--json");
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.check === "remote");
}

describe("other checkouts in status, watch and doctor", () => {
  it("shows another clone's session and lease after a sync, then since when presence is unknown once the remote fails", async () => {
    const world = bareWorld((base) => `file://${base}`);
    const [a, b] = [world.clone("a"), world.clone("b")];
    expect(
      denied(
        await hook("claude-code", "pre-tool-use", claudeWrite(a, "A1", "src/x.ts"), {
          cwd: a,
          env: { ...fakeAgent(), TANDEM_SERVER: "0" },
        }),
      ),
    ).toBeNull();
    expect((await run(a, "reserve", "src/y.ts", "--ttl", "2h")).code).toBe(0);
    expect((await run(a, "sync")).code).toBe(0);
    expect((await run(b, "sync")).code).toBe(0);

    const status = await run(b, "status");
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      /Elsewhere \(other checkouts through origin, as of the last sync\):\n {2}- agent-\w+ \(claude-code\) in \S+:\S+\/a on main: src\/x\.ts \(as of just now\)\n {2}- src\/y\.ts reserved by \S+\/a until \d{4}-/,
    );
    expect(status.stdout).not.toContain("unknown");
    const json = JSON.parse((await run(b, "status", "--json")).stdout).overview.elsewhere;
    expect(json).toMatchObject({ state: "ok", remote: "origin", checkouts: 1, unknown: null });
    expect(json.sessions[0].paths).toEqual(["src/x.ts"]);
    expect(json.leases.map((l: { path: string; mine: boolean }) => [l.path, l.mine])).toEqual([
      ["src/y.ts", false],
    ]);

    const board = (await run(b, "watch", "--once")).stdout;
    expect(board).toMatch(/-- ELSEWHERE 1 remote session, 1 lease -/);
    expect(board).toMatch(/\/a +agent-\w+ +main +src\/x\.ts/);
    expect(board).toMatch(/\/a +\(lease\) +- +src\/y\.ts +- +until/);
    expect(await remoteCheck(b)).toMatchObject({
      level: "ok",
      detail: expect.stringMatching(
        /last sync with origin \d+s ago: 1 other checkout\(s\) seen, 1 live session\(s\) there, 1 lease\(s\)/,
      ),
    });
    // Reservations are listed where claims are.
    expect((await run(b, "claims")).stdout).toMatch(/^src\/y\.ts reserved by \S+\/a until \d{4}-/m);
    expect(JSON.parse((await run(b, "claims", "--json")).stdout)).toEqual([
      expect.objectContaining({ lease: true, path: "src/y.ts", mine: false }),
    ]);
    // A sees its own lease as its own.
    expect((await run(a, "status")).stdout).toMatch(/- src\/y\.ts reserved by this checkout until/);

    g(b, "remote", "set-url", "origin", join(world.base, "gone.git"));
    expect((await run(b, "sync")).code).toBe(1);
    const failed = (await run(b, "status")).stdout;
    expect(failed).not.toMatch(/No problems/);
    expect(failed).toMatch(/Problems:\n {2}✗ remote presence unknown/);
    expect(failed).toMatch(
      /✗ remote presence unknown since \d{4}-\S+ \(\d+s ago\): .*gone\.git.*\n {6}fix: origin cannot be reached: check that `git fetch origin` works here/,
    );
    // What the last good round read stays shown, with its age.
    expect(failed).toMatch(/- agent-\w+ \(claude-code\) in \S+\/a on main: src\/x\.ts/);
    expect((await run(b, "watch", "--once")).stdout).toMatch(
      /-- ELSEWHERE 1 remote session, 1 lease, unknown since \d\d:\d\d:\d\d/,
    );
    expect(await remoteCheck(b)).toMatchObject({
      level: "problem",
      detail: expect.stringMatching(/^remote presence unknown since .*gone\.git/),
      fix: expect.stringMatching(/origin cannot be reached/),
    });
  });

  it("has no Elsewhere section without a remote, and doctor says how to add one", async () => {
    const repo = initRepo(join(tempDir(), "solo"));
    const status = await run(repo, "status");
    expect(status.stdout).not.toMatch(/Elsewhere|remote presence/);
    expect((await run(repo, "watch", "--once")).stdout).not.toContain("ELSEWHERE");
    expect(await remoteCheck(repo)).toMatchObject({
      level: "ok",
      detail: expect.stringMatching(/git remote add origin URL/),
    });
  });

  it("says no round has run yet in a clone that never synced, and nothing with remote.enabled false", async () => {
    const world = bareWorld((base) => `file://${base}`);
    const c = world.clone("c");
    setConfig(c, {}); // set up (a clone never set up is told to run `tandem init` instead)
    const status = (await run(c, "status")).stdout;
    expect(status).toMatch(/\(remote presence unknown: no sync round has run yet; run `tandem sync`/);
    // Not a problem (doctor calls it info), so nothing marked ✗ stands above "No problems.".
    expect(status).not.toContain("✗");
    expect(status).toMatch(/No problems\./);
    expect(await remoteCheck(c)).toMatchObject({ level: "info", detail: "no sync round has run yet" });
    const off = await cli(["status"], { cwd: c, env: { ...PLAIN, TANDEM_REMOTE: "0" } });
    expect(off.stdout).not.toContain("Elsewhere");
  });
});
