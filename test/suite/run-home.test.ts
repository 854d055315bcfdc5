import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type HomeFacts, runHomePlan } from "../helpers/run-home.js";

const REAL: HomeFacts = { realHome: "/home/dev", name: "Dev One", email: "dev@example.org", npmrc: true };

describe("the run's own home", () => {
  it("keeps the developer's git identity, and nothing else of their git config", () => {
    expect(runHomePlan(REAL, {}).gitconfig).toBe("[user]\n\tname = Dev One\n\temail = dev@example.org\n");
  });

  it("gives a fixed identity when the developer has none", () => {
    const plan = runHomePlan({ ...REAL, name: null, email: null }, {});
    expect(plan.gitconfig).toBe("[user]\n\tname = Tandem Test\n\temail = tandem-test@example.invalid\n");
  });

  const cases: [string, HomeFacts, NodeJS.ProcessEnv, Record<string, string>][] = [
    [
      "npm reads the real cache and user config",
      REAL,
      {},
      { npm_config_cache: "/home/dev/.npm", npm_config_userconfig: "/home/dev/.npmrc" },
    ],
    [
      "no .npmrc: no user config is named",
      { ...REAL, npmrc: false },
      {},
      { npm_config_cache: "/home/dev/.npm" },
    ],
    ["what the developer set stays", REAL, { npm_config_cache: "/c", npm_config_userconfig: "/u" }, {}],
  ];
  it.each(cases)("%s", (_, facts, env, vars) => {
    expect(runHomePlan(facts, env).vars).toEqual(vars);
  });

  it("is what this run's processes see: a login shell finds no dotfiles to read", () => {
    const home = process.env.HOME!;
    expect(home.startsWith(tmpdir())).toBe(true);
    expect(readFileSync(join(home, ".gitconfig"), "utf8")).toMatch(/^\[user\]\n\tname = .+\n\temail = .+\n$/);
    const login = spawnSync("bash", ["-lc", 'echo "$HOME"; ls -A "$HOME"'], { encoding: "utf8" });
    const [seen, ...files] = login.stdout.trim().split("\n");
    expect(seen).toBe(home);
    expect(files.filter((f) => /^\.(profile|bash_profile|bash_login|bashrc)$/.test(f))).toEqual([]);
  });
});
