/**
 * Issue 41 §1: one ref per leased path (decision 0062). Clones reserve at once as separate
 * processes against one bare remote: distinct paths all win, one path has one winner, a directory
 * and the files below it never both, and the single leases document of older Tandems migrates.
 */
import { describe, expect, it } from "vitest";
import { type Lease, leasesText } from "../../src/core/remote/leases.js";
import { writeDocCommit } from "../../src/remote/objects.js";
import { tandem } from "../helpers/cli.js";
import { g } from "../helpers/repo.js";
import { clones, tandemAsync } from "./remote-world.js";

const leaseRefs = (remote: string) =>
  g(remote, "for-each-ref", "--format=%(refname)", "refs/tandem/lease/", "refs/tandem/leases")
    .split("\n")
    .filter(Boolean);

interface Outcome {
  code: number;
  stderr: string;
  reserved?: string[];
  lost?: { path: string; holder: { checkoutName: string } }[];
}

async function reserveAll(jobs: { dir: string; paths: string[] }[]): Promise<Outcome[]> {
  const runs = await Promise.all(jobs.map((j) => tandemAsync(["reserve", ...j.paths, "--json"], j.dir)));
  return runs.map((r) => ({ code: r.code, stderr: r.stderr, ...JSON.parse(r.stdout || "{}") }));
}

describe("reservations as one ref per path, raced by clones at once", () => {
  it("20 clones reserving 20 different paths at once all win", async () => {
    const { remote, dirs } = clones(20);
    const outs = await reserveAll(dirs.map((dir, i) => ({ dir, paths: [`src/f${i}.ts`] })));
    for (const [i, o] of outs.entries()) {
      expect(o.code, o.stderr).toBe(0);
      expect(o.reserved).toEqual([`src/f${i}.ts`]);
    }
    expect(leaseRefs(remote)).toHaveLength(20);
  });

  it("20 clones racing for one path: exactly one wins, every other is told who, none gives up", async () => {
    const { remote, dirs } = clones(20);
    const outs = await reserveAll(dirs.map((dir) => ({ dir, paths: ["src/x.ts"] })));
    const winners = outs.filter((o) => o.code === 0);
    expect(winners, JSON.stringify(outs)).toHaveLength(1);
    const winner = dirs[outs.indexOf(winners[0]!)];
    for (const o of outs.filter((x) => x !== winners[0])) {
      expect(o.code, o.stderr).toBe(1);
      expect(o.stderr).toBe("");
      expect(o.lost?.[0]?.holder.checkoutName).toMatch(new RegExp(`:${winner}$`));
    }
    expect(leaseRefs(remote)).toEqual(["refs/tandem/lease/src/x.ts"]);
  });

  it("a directory and files below it, raced: the remote keeps one side only", async () => {
    const { remote, dirs } = clones(8);
    const outs = await reserveAll(
      dirs.map((dir, i) => ({ dir, paths: [i % 2 === 0 ? "src" : `src/f${i}.ts`] })),
    );
    const refs = leaseRefs(remote);
    const won = outs.flatMap((o) => o.reserved ?? []);
    if (refs.includes("refs/tandem/lease/src")) {
      expect(refs).toEqual(["refs/tandem/lease/src"]);
      expect(won).toEqual(["src"]);
    } else {
      expect(won.every((p) => p.startsWith("src/f"))).toBe(true);
      expect(refs).toEqual(won.map((p) => `refs/tandem/lease/${p}`).sort());
    }
    for (const o of outs) expect(o.code === 0 || o.lost?.length === 1, o.stderr).toBe(true);
  });

  it("a reservation of several paths is one push: all its refs appear, or a taken one is named", () => {
    const { remote, dirs } = clones(2);
    const [a, b] = dirs as [string, string];
    expect(tandem(["reserve", "docs/b.md"], { cwd: b }).code).toBe(0);
    const out = tandem(["reserve", "docs/a.md", "docs/b.md", "docs/c.md", "--json"], { cwd: a });
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout).reserved).toEqual(["docs/a.md", "docs/c.md"]);
    expect(leaseRefs(remote)).toEqual([
      "refs/tandem/lease/docs/a.md",
      "refs/tandem/lease/docs/b.md",
      "refs/tandem/lease/docs/c.md",
    ]);
  });
});

describe("a lease ref Tandem cannot read", () => {
  it("holds its path against everyone, and says so", () => {
    const { dirs } = clones(2);
    const [a, b] = dirs as [string, string];
    const odd = writeDocCommit(a, "lease.json", '{"format":9}\n', "a newer Tandem");
    g(a, "push", "-q", "origin", `${odd}:refs/tandem/lease/src/x.ts`);
    const out = tandem(["reserve", "src/x.ts"], { cwd: b });
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(
      "lost src/x.ts: reserved by an unreadable lease ref (a newer Tandem, or damaged)",
    );
  });
});

describe("the single leases document of an older Tandem", () => {
  const old = (path: string, expires: number): Lease => ({
    path,
    checkout: "0ther",
    checkoutName: "buildbox:/srv/app",
    session: "agent-wren",
    task: null,
    expires,
  });

  it("becomes one ref per live lease at the next sync, and its holders keep their paths", () => {
    const { remote, dirs } = clones(2);
    const [a, b] = dirs as [string, string];
    const now = Date.now();
    const doc = leasesText({
      format: 1,
      leases: [old("src/held.ts", now + 3_600_000), old("gone.ts", now - 600_000)],
    });
    g(
      a,
      "push",
      "-q",
      "origin",
      `${writeDocCommit(a, "leases.json", doc, "tandem reserve")}:refs/tandem/leases`,
    );

    expect(tandem(["sync"], { cwd: b }).code).toBe(0);
    expect(leaseRefs(remote)).toEqual(["refs/tandem/lease/src/held.ts"]);
    const taken = tandem(["reserve", "src/held.ts"], { cwd: b });
    expect(taken.code).toBe(1);
    expect(taken.stdout).toContain("lost src/held.ts: reserved by buildbox:/srv/app");
    expect(tandem(["reserve", "gone.ts"], { cwd: a }).code).toBe(0);
  });
});
