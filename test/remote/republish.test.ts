/**
 * Issue 25 §5: a lease ref (refs/tandem/lease/<path>, decision 0062) deleted by a forced push (from a person's terminal, where no hook
 * judges it). The clone holding a reservation puts it back at its next sync, so another clone is
 * still refused the path instead of taking it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tandem } from "../helpers/cli.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

/** A bare remote and two clones of it. */
function twoClones(): { remote: string; a: string; b: string } {
  const base = tempDir();
  const remote = join(base, "remote.git");
  g(base, "init", "-q", "--bare", "-b", "main", remote);
  const seed = initRepo(join(base, "seed"));
  g(seed, "push", "-q", `file://${remote}`, "main");
  const [a, b] = ["a", "b"].map((n) => {
    g(base, "clone", "-q", `file://${remote}`, join(base, n));
    return join(base, n);
  }) as [string, string];
  return { remote, a, b };
}

const leasesOnRemote = (remote: string) =>
  g(remote, "for-each-ref", "--format=%(refname)", "refs/tandem/lease/");

describe("leases deleted from the remote by a forced push", () => {
  it("are put back by the holder's next sync, and the other clone is then refused the path", () => {
    const { remote, a, b } = twoClones();
    expect(tandem(["reserve", "src/x.ts", "--ttl", "1h"], { cwd: a }).code).toBe(0);

    g(b, "push", "-q", "-f", "origin", ":refs/tandem/lease/src/x.ts");
    expect(leasesOnRemote(remote)).toBe("");

    const sync = tandem(["sync"], { cwd: a });
    expect(sync.stdout).toContain("put back: src/x.ts");
    expect(leasesOnRemote(remote)).toContain("refs/tandem/lease/src/x.ts");

    const taken = tandem(["reserve", "src/x.ts"], { cwd: b });
    expect(taken.code).toBe(1);
    expect(taken.stdout).toContain("lost src/x.ts: reserved by");
    expect(taken.stdout).toContain(`:${a}, until`);
  });

  it("puts back nothing a clone released itself", () => {
    const { a, b } = twoClones();
    expect(tandem(["reserve", "src/x.ts", "--ttl", "1h"], { cwd: a }).code).toBe(0);
    expect(tandem(["reserve", "--release", "src/x.ts"], { cwd: a }).code).toBe(0);
    expect(tandem(["sync"], { cwd: a }).stdout).not.toContain("put back");
    expect(tandem(["reserve", "src/x.ts"], { cwd: b }).code).toBe(0);
  });
});
