/**
 * Issue 37.6: `land.check` and `TANDEM_LAND_CHECK` are judged before they run, as the lander's own
 * shell command would be. A live peer (a long-lived fake agent, CLAUDE_PID) holds notes.txt
 * uncommitted in the shared checkout; a check that would destroy it is refused and nothing is
 * pushed, the same check with no one holding anything runs, and a check confined to its own
 * private worktree always runs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LandResult } from "../../src/core/land/result.js";
import { fakeAgent } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { agentEditsHere as agentEdits, landJsonHere as landJson } from "../land/land-here.js";
import { commit, landWorld, read, remoteHead } from "../land/land-world.js";

type Failed = Extract<LandResult, { outcome: "check-failed" }>;

/** A checkout with one commit to land; with `peer`, a live agent's uncommitted notes.txt beside it. */
async function world(peer: boolean) {
  const w = landWorld();
  const a = w.checkout("a");
  if (peer) await agentEdits(a, "P", fakeAgent(), "notes.txt", "P's unsaved thoughts\n");
  commit(a, { "a.txt": "a\n" }, "a's work");
  return { w, a };
}

const DESTROYING: { name: string; check: string }[] = [
  { name: "git checkout . on the shared checkout", check: 'cd "$TANDEM_LAND_TOP" && git checkout -- .' },
  { name: "git stash -u on the shared checkout", check: 'git -C "$TANDEM_LAND_TOP" stash -u -q' },
  { name: "rm of the peer's file", check: 'rm -f "$TANDEM_LAND_TOP/notes.txt"' },
  { name: "git reset --hard on the shared checkout", check: 'git -C "$TANDEM_LAND_TOP" reset -q --hard' },
];

describe("the land check is judged as the lander's own command", () => {
  for (const c of DESTROYING) {
    it(`refuses ${c.name} while a live peer holds the file, and runs it otherwise`, async () => {
      const held = await world(true);
      const upstream = remoteHead(held.w);
      const refused = await landJson(held.a, { TANDEM_LAND_CHECK: c.check });
      expect(refused.code).toBe(1);
      expect(refused.result).toMatchObject({ outcome: "check-failed", checks: 0 });
      const out = (refused.result as Failed).rejected.check.output;
      expect(out).toContain("was refused before it ran");
      expect(out).toContain("notes.txt");
      expect(out).toContain("TANDEM_LAND_CHECK_DIR");
      expect(read(held.a, "notes.txt")).toBe("P's unsaved thoughts\n");
      expect(remoteHead(held.w)).toBe(upstream);

      const alone = await world(false);
      expect(await landJson(alone.a, { TANDEM_LAND_CHECK: c.check })).toMatchObject({
        code: 0,
        result: { outcome: "pushed", checks: 1 },
      });
    });
  }

  it("judges land.check from the project config the same way", async () => {
    const { w, a } = await world(true);
    const upstream = remoteHead(w);
    mkdirSync(join(a, ".tandem"), { recursive: true });
    writeFileSync(
      join(a, ".tandem", "config.jsonc"),
      JSON.stringify({ land: { check: 'git -C "$TANDEM_LAND_TOP" checkout -- notes.txt' } }),
    );
    const r = await landJson(a);
    expect(r.result).toMatchObject({ outcome: "check-failed", checks: 0 });
    expect(read(a, "notes.txt")).toBe("P's unsaved thoughts\n");
    expect(remoteHead(w)).toBe(upstream);
  });

  it("runs a check that only cleans its own private worktree, peer or not", async () => {
    const { w, a } = await world(true);
    const r = await landJson(a, {
      TANDEM_LAND_CHECK: "git checkout -- . && git clean -fdq && test -f a.txt",
    });
    expect(r).toMatchObject({ code: 0, result: { outcome: "pushed", checks: 1 } });
    expect(read(a, "notes.txt")).toBe("P's unsaved thoughts\n");
    expect(g(w.bare, "log", "-1", "--format=%s", "main").trim()).toBe("a's work");
  });
});
