/**
 * Issue 37.6: `git submodule update --force`, `deinit -f` and `foreach` are judged before they run
 * like their plain counterparts in each submodule. P, a live agent (a long-lived process,
 * CLAUDE_PID), holds an uncommitted edit of sub/README.md; B's commands go through the real
 * pre-tool hook and, when allowed, run for real.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { superWithSub } from "../finalization/fixture.js";
import { claudeBash, claudeWrite, denied, fakeAgent } from "../helpers/hooks.js";
import { hook } from "../helpers/in-process.js";
import { tempDir, writeFiles } from "../helpers/repo.js";

const EDIT = "P's uncommitted edit\n";

/** A superproject whose submodule file P is editing (when `peer`), and B's environment. */
async function world(peer: boolean) {
  const { sup } = superWithSub(tempDir());
  if (peer) {
    const p = fakeAgent();
    const r = await hook("claude-code", "pre-tool-use", claudeWrite(sup, "P", "sub/README.md"), {
      cwd: sup,
      env: p,
    });
    expect(denied(r)).toBeNull();
    writeFiles(sup, { "sub/README.md": EDIT });
  }
  return { sup, b: fakeAgent() };
}

/** B's command through the real hook: the denial, or null after it ran. */
async function asB(sup: string, env: Record<string, string>, command: string): Promise<string | null> {
  const r = await hook("claude-code", "pre-tool-use", claudeBash(sup, "B", command), { cwd: sup, env });
  const refusal = denied(r);
  if (refusal === null) execFileSync("sh", ["-c", command], { cwd: sup, stdio: "ignore" });
  return refusal;
}

const DESTROYING = [
  "git submodule update --force",
  "git submodule update -f -- sub",
  "git submodule deinit -f sub",
  "git submodule deinit --force --all",
  "git submodule foreach 'git checkout -- .'",
  "git submodule foreach --recursive git reset --hard",
];

describe("git submodule commands judged up front", () => {
  for (const command of DESTROYING) {
    it(`refuses \`${command}\` while a live peer edits a submodule file, and runs it otherwise`, async () => {
      const held = await world(true);
      const refusal = await asB(held.sup, held.b, command);
      expect(refusal).toContain("sub/README.md");
      expect(refusal).toContain("would overwrite or remove another live agent's uncommitted edits");
      expect(readFileSync(join(held.sup, "sub", "README.md"), "utf8")).toBe(EDIT);

      const alone = await world(false);
      expect(await asB(alone.sup, alone.b, command)).toBeNull();
    });
  }

  it("lets through what leaves the submodules' files alone, peer or not", async () => {
    const { sup, b } = await world(true);
    for (const command of [
      "git submodule status",
      "git submodule update",
      "git submodule foreach git status",
    ])
      expect(await asB(sup, b, command)).toBeNull();
    expect(readFileSync(join(sup, "sub", "README.md"), "utf8")).toBe(EDIT);
  });
});
