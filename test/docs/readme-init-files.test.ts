import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN, THIN_BIN, tandem } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/**
 * Issue 42 §7: the README names every file `tandem init` writes, for every client, in the project
 * and in the user's home. The list comes from init itself (`--json`), run the two ways that write
 * different files: a launcher outside the clone, and a devDependency's, whose allow rules name a
 * path of the clone and so go into local files.
 */

const README = readFileSync(join(process.cwd(), "README.md"), "utf8");

/** The paths init plans for a fresh repository wired with `launcher` (`~/` for the home's). */
function initPaths(launcherArgs: string[], prepare: (repo: string) => void = () => {}): string[] {
  const repo = initRepo(join(tempDir(), "repo"), { "README.md": "x\n" });
  prepare(repo);
  const home = join(repo, "..", "home");
  mkdirSync(home);
  const env = { HOME: home, GEMINI_CLI_HOME: undefined, PATH: "/usr/bin:/bin" };
  const r = tandem(["init", "--json", ...launcherArgs], { cwd: repo, env });
  expect(r.code, r.stderr).toBe(0);
  const files = (JSON.parse(r.stdout) as { files: { path: string }[] }).files;
  return files.map((f) => (f.path.startsWith(`${home}/`) ? `~/${f.path.slice(home.length + 1)}` : f.path));
}

/** The README names the file in a code span, or its folder (`.clinerules/hooks/`, `~/.gemini/policies/`). */
function named(path: string): boolean {
  return README.includes(`\`${path}\``) || README.includes(`${dirname(path)}/\``);
}

describe("the README's list of what `tandem init` writes", () => {
  it("names every file init writes for a launcher outside the clone", () => {
    const paths = initPaths(PIN);
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.some((p) => p.startsWith("~/"))).toBe(true);
    expect(paths.filter((p) => !named(p))).toEqual([]);
  });

  it("names every file init writes for a devDependency, the clone's local files included", () => {
    const paths = initPaths(["--command", "node_modules/.bin/tandem"], (repo) => {
      mkdirSync(join(repo, "node_modules", ".bin"), { recursive: true });
      symlinkSync(THIN_BIN, join(repo, "node_modules", ".bin", "tandem"));
    });
    expect(paths).toContain(".claude/settings.local.json");
    expect(paths.filter((p) => !named(p))).toEqual([]);
  });
});
