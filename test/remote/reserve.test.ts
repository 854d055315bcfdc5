import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Lease, leasesText } from "../../src/core/remote/leases.js";
import { writeDocCommit } from "../../src/remote/objects.js";
import { PIN } from "../helpers/cli.js";
import { cli } from "../helpers/in-process-cli.js";
import { g } from "../helpers/repo.js";
import { clones, startDaemon, tandemAsync } from "./remote-world.js";

/** Runs 8 clones' `tandem reserve src/x.ts` at once; checks exactly one won and every loser was told who. */
async function race(dirs: string[]): Promise<void> {
  const results = await Promise.all(dirs.map((d) => tandemAsync(["reserve", "src/x.ts", "--json"], d)));
  const outs = results.map((r) => ({ code: r.code, stderr: r.stderr, ...JSON.parse(r.stdout || "{}") }));
  const winners = outs.filter((o) => o.code === 0);
  expect(winners, JSON.stringify(outs)).toHaveLength(1);
  expect(winners[0].reserved).toEqual(["src/x.ts"]);
  const winner = dirs[outs.indexOf(winners[0])];
  for (const o of outs.filter((x) => x.code !== 0)) {
    expect(o.code, o.stderr).toBe(1);
    expect(o.reserved).toEqual([]);
    expect(o.lost).toHaveLength(1);
    expect(o.lost[0].path).toBe("src/x.ts");
    expect(o.lost[0].holder.checkoutName).toMatch(new RegExp(`:${winner}$`));
  }
}

const reserve = (cwd: string, ...args: string[]) => cli(["reserve", ...args], { cwd });

/** Writes a leases document straight onto the remote, as another machine would have. */
function pushLeases(repo: string, leases: Lease[]): void {
  const commit = writeDocCommit(repo, "leases.json", leasesText({ format: 1, leases }), "tandem reserve");
  g(repo, "push", "-q", "--force", "origin", `${commit}:refs/tandem/leases`);
}

const lease = (path: string, expires: number): Lease => ({
  path,
  checkout: "0ther",
  checkoutName: "buildbox:/srv/app",
  session: "agent-wren",
  task: "port the parser",
  expires,
});

describe("tandem reserve across clones of one remote", () => {
  it("gives a path to exactly one of 8 clones racing for it and tells every loser who holds it", async () => {
    await race(clones(8).dirs);
  });

  it("does the same over the git protocol (git daemon on 127.0.0.1)", async () => {
    const { base, dirs } = clones(8);
    // Cloned over file://, then pointed at a daemon serving the same bare remote.
    const daemon = await startDaemon(base);
    try {
      for (const d of dirs) g(d, "remote", "set-url", "origin", `${daemon.url}/remote.git`);
      await race(dirs);
    } finally {
      daemon.stop();
    }
  });

  it("lets another clone reserve a path once its holder released it", async () => {
    const [a, b] = clones(2).dirs as [string, string];
    expect((await reserve(a, "src/x.ts", "--ttl", "1h")).code).toBe(0);
    const lost = await reserve(b, "src/x.ts");
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain(`lost src/x.ts: reserved by`);
    expect(lost.stdout).toContain(`:${a}, until`);
    expect((await reserve(b, "--release", "src/x.ts")).stdout).toContain("nothing to release");
    expect((await reserve(a, "--release", "src")).stdout).toBe("released src/x.ts\n");
    const won = await reserve(b, "src/x.ts");
    expect(won.code, won.stdout).toBe(0);
    expect(won.stdout).toMatch(/^reserved src\/x\.ts until /);
  });

  it("shows a reservation in this checkout's status at once, and its release, without a sync", async () => {
    const [a] = clones(1).dirs as [string];
    const init = await cli(["init", ...PIN, "--clients", "claude-code", "--no-git-hooks"], { cwd: a });
    expect(init.code).toBe(0);
    expect((await reserve(a, "src/x.ts", "--ttl", "1h")).code).toBe(0);
    const on = { env: { TANDEM_REMOTE: "1" } };
    expect((await cli(["status"], { cwd: a, ...on })).stdout).toMatch(/src\/x\.ts reserved by this checkout/);
    expect((await reserve(a, "--release", "src/x.ts")).code).toBe(0);
    expect((await cli(["status"], { cwd: a, ...on })).stdout).not.toMatch(/src\/x\.ts/);
  });

  it("takes over a lease that expired beyond the clock-skew margin, but not one within it", async () => {
    const [a, b] = clones(2).dirs as [string, string];
    const now = Date.now();
    pushLeases(a, [lease("src/old.ts", now - 5 * 60_000), lease("src/recent.ts", now - 20_000)]);
    const out = await reserve(b, "src/old.ts", "src/recent.ts", "--json");
    expect(out.code).toBe(1);
    const j = JSON.parse(out.stdout);
    expect(j.reserved).toEqual(["src/old.ts"]);
    expect(j.lost.map((l: { path: string }) => l.path)).toEqual(["src/recent.ts"]);
    expect(j.lost[0].holder).toMatchObject({ session: "agent-wren", task: "port the parser" });
  });

  it("says clearly when the remote refuses custom refs, and when it cannot be reached", async () => {
    const { remote, dirs } = clones(1);
    const hook = join(remote, "hooks", "pre-receive");
    writeFileSync(
      hook,
      '#!/bin/sh\nwhile read old new ref; do case "$ref" in refs/heads/*|refs/tags/*) ;; *) echo "only branches and tags" >&2; exit 1;; esac; done\n',
    );
    chmodSync(hook, 0o755);
    const refused = await reserve(dirs[0]!, "src/x.ts");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "refused its lease refs, refs/tandem/lease/* (pre-receive hook declined)",
    );
    expect(refused.stderr).toContain("Allow refs/tandem/*");
    g(dirs[0]!, "remote", "set-url", "origin", join(remote, "..", "gone.git"));
    const gone = await reserve(dirs[0]!, "src/x.ts");
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("cannot reach remote origin");
  });
});
