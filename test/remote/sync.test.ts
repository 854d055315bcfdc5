import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePresence } from "../../src/core/remote/presence.js";
import type { SyncResult } from "../../src/remote/sync.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, fakeAgent, hook } from "../helpers/hooks.js";
import { g, writeFiles } from "../helpers/repo.js";
import { bareWorld, startDaemon, stored } from "./remote-world.js";

const ENV = { TANDEM_SERVER: "0" };

function sync(repo: string, ...flags: string[]): SyncResult {
  const r = tandem(["sync", "--json", ...flags], { cwd: repo, env: ENV });
  return JSON.parse(r.stdout) as SyncResult;
}

/** Session `native` in `repo` claims `file` through a real pre-tool-use hook. */
function claim(repo: string, native: string, file: string, agent: { CLAUDE_PID: string }): void {
  const r = hook("claude-code", "pre-tool-use", claudeWrite(repo, native, file), {
    cwd: repo,
    // These rounds are the test's own: the hooks start none in the background.
    env: { ...agent, ...ENV, TANDEM_REMOTE: "0" },
  });
  expect(denied(r)).toBeNull();
}

for (const transport of ["file", "daemon"] as const) {
  describe(`presence over ${transport === "file" ? "file://" : "git:// (git daemon)"}`, () => {
    let world: ReturnType<typeof bareWorld>;
    let stop = () => {};
    beforeAll(async () => {
      if (transport === "file") {
        world = bareWorld((base) => `file://${base}`);
        return;
      }
      world = bareWorld(() => "");
      const daemon = await startDaemon(world.base);
      stop = daemon.stop;
      world.url = daemon.url;
    });
    afterAll(() => stop());

    it("publishes A's sessions, claims and dirty paths, seen by B and C; unchanged presence is not re-published", () => {
      const [a, b, c] = [world.clone("a"), world.clone("b"), world.clone("c")];
      const agent = fakeAgent();
      claim(a, "A1", "src/a.ts", agent);
      claim(a, "A1", "docs/b.md", agent);
      writeFiles(a, { "src/a.ts": "edited\n", "README.md": "changed by nobody's session\n" });

      const first = sync(a);
      expect(first.ok, JSON.stringify(first.error)).toBe(true);
      expect(first.published).toBe(true);
      expect(sync(a).published).toBe(false); // same substance, younger than the interval

      for (const other of [b, c]) {
        const seen = sync(other);
        expect(seen.ok).toBe(true);
        // B published its own (empty) presence in its round, so C sees both.
        expect(seen.seen.map((s) => s.name)).toContain(`${hostname()}:${a}`);
        expect(seen.seen.map((s) => s.name)).not.toContain(`${hostname()}:${other}`);
        const row = stored(other).rows.find((r) => r.name.endsWith(`:${a}`));
        const doc = parsePresence(row!.doc)!;
        expect(doc.branch).toBe("main");
        expect(doc.upstream).toBe("origin/main");
        expect(doc.base).toBe(g(a, "rev-parse", "HEAD").trim());
        expect(doc.sessions).toEqual([
          expect.objectContaining({
            client: "claude-code",
            branch: "main",
            claims: ["docs/b.md", "src/a.ts"],
            dirty: ["src/a.ts"],
          }),
        ]);
      }
      // A new claim changes the substance: published again at once.
      claim(a, "A1", "src/c.ts", agent);
      expect(sync(a).published).toBe(true);
      const again = sync(b);
      const doc = parsePresence(stored(b).rows.find((r) => r.name.endsWith(`:${a}`))!.doc)!;
      expect(again.ok).toBe(true);
      expect(doc.sessions[0]!.claims).toEqual(["docs/b.md", "src/a.ts", "src/c.ts"]);
    });
  });
}
