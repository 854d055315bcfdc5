import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import { g, initRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 37.8: where git says the repository's filesystem ignores case or normalises Unicode, a
 * name and its fold are one file and one claim. No such filesystem is needed: the claim decision
 * compares folded keys whatever the disk under it does.
 */
describe("claims on a case-insensitive or normalising repository", () => {
  const pre = (repo: string, session: string, file: string) =>
    hook("claude-code", "pre-tool-use", claudeWrite(repo, session, file), { cwd: repo });

  it("refuses a second session's F.TXT while a peer holds f.txt, with core.ignorecase true", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    g(repo, "config", "core.ignorecase", "true");
    expect(denied(pre(repo, "A", "f.txt"))).toBeNull();
    const b = pre(repo, "B", "F.TXT");
    expect(b.code).toBe(0);
    expect(denied(b)).toMatch(/F\.TXT: held by agent-\w+/);
    // The claim keeps the name as A wrote it.
    expect(ledger(repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
    // A writing its own file under another case takes no second claim.
    expect(denied(pre(repo, "A", "F.txt"))).toBeNull();
    expect(ledger(repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
  });

  it("refuses a decomposed é while a peer holds the composed one, with core.precomposeunicode true", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    g(repo, "config", "core.precomposeunicode", "true");
    expect(denied(pre(repo, "A", "caf\u00e9.md"))).toBeNull();
    expect(denied(pre(repo, "B", "cafe\u0301.md"))).toContain("cafe\u0301.md");
  });

  it("keeps F.TXT and f.txt apart where git says the filesystem tells them apart", () => {
    const repo = initRepo(join(tempDir(), "repo"));
    g(repo, "config", "core.ignorecase", "false");
    expect(denied(pre(repo, "A", "f.txt"))).toBeNull();
    expect(denied(pre(repo, "B", "F.TXT"))).toBeNull();
  });
});
