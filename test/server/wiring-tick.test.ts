import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watchWiring } from "../../src/server/wiring-watch.js";
import { DIRECT_ACCESS } from "../../src/store/access.js";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { PIN, tandem } from "../helpers/cli.js";
import { initRepo } from "../helpers/repo.js";
import { scratch, stateDir, waitFor } from "./support.js";

/**
 * The server's slow tick runs the wiring check too (decision 0024): a change whose watch event never
 * arrives (a lost inotify event, a full queue) is healed within the tick, not at the next hook.
 */

const SETTINGS = ".claude/settings.json";

function restoredByServer(repo: string): string[] {
  const db = openDb(stateDir(repo), { readonly: true });
  try {
    return listEvents(db, { kind: "wiring.restored" })
      .map((e) => e.data as { file: string; via: string })
      .filter((d) => d.via === "server")
      .map((d) => d.file);
  } finally {
    db.close();
  }
}

describe("the wiring watch's tick", () => {
  it("heals an overwrite whose event never came", async () => {
    const repo = initRepo(join(scratch(), "repo"));
    const init = tandem(["init", ...PIN, "--clients", "claude-code"], {
      cwd: repo,
      env: { PATH: "/usr/bin:/bin" },
    });
    expect(init.code, init.stderr).toBe(0);

    // A watch that is armed but never reports: only the tick can find the change.
    const armed: string[] = [];
    const blind = (dir: string) => {
      armed.push(dir);
      return { close() {} };
    };
    const log: string[] = [];
    const watch = watchWiring(stateDir(repo), DIRECT_ACCESS, (l) => log.push(l), blind);
    try {
      expect(armed).toContain(join(repo, ".claude"));
      writeFileSync(join(repo, SETTINGS), "{}");
      await waitFor("the tick to restore the settings", () => restoredByServer(repo).length === 1);
      expect(restoredByServer(repo)).toEqual([join(repo, SETTINGS)]);
      expect(readFileSync(join(repo, SETTINGS), "utf8")).toContain("hook claude-code pre-tool-use");
      expect(log.join("\n")).toContain(`restored Tandem's entries in ${join(repo, SETTINGS)}`);
    } finally {
      watch.close();
    }
  });
});
