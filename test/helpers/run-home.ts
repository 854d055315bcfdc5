import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A home of the run's own (decision 0085). `tandem init` and `doctor` probe the agents' command in a
 * login shell (`bash -lc`), as Codex's shell runs it; a login shell reads the developer's dotfiles,
 * and on this machine those start pyenv: ~15,000 processes and ~40 s of CPU in a full run, and a
 * result that depends on whose machine it is. The run's home holds only a git identity (the
 * developer's, so commits read as theirs); npm keeps reading the real cache and user config, which
 * the install tests need offline.
 */

export interface HomeFacts {
  realHome: string;
  /** `git config --global user.name` / `user.email` in the real home, when set. */
  name: string | null;
  email: string | null;
  /** Whether the real home has an `.npmrc`. */
  npmrc: boolean;
}

/** What the run's home holds and which variables point back to the real one. Pure. */
export function runHomePlan(
  f: HomeFacts,
  env: NodeJS.ProcessEnv,
): { gitconfig: string; vars: Record<string, string> } {
  const name = f.name ?? "Tandem Test";
  const email = f.email ?? "tandem-test@example.invalid";
  const vars: Record<string, string> = {};
  if (!env.npm_config_cache) vars.npm_config_cache = join(f.realHome, ".npm");
  if (!env.npm_config_userconfig && f.npmrc) vars.npm_config_userconfig = join(f.realHome, ".npmrc");
  return { gitconfig: `[user]\n\tname = ${name}\n\temail = ${email}\n`, vars };
}

/** A command's trimmed output, or null when it fails or prints nothing. */
export function outputOrNull(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  try {
    const out = execFileSync(cmd, args, {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return out || null;
  } catch {
    return null;
  }
}

const globalGit = (realHome: string, key: string): string | null =>
  outputOrNull("git", ["config", "--global", "--get", key], { ...process.env, HOME: realHome });

/**
 * Points HOME at a fresh directory under the run's TMPDIR (call after useRunTmp) and returns its
 * removal.
 */
export function useRunHome(env: NodeJS.ProcessEnv = process.env): () => void {
  const realHome = env.HOME || homedir();
  const facts: HomeFacts = {
    realHome,
    name: globalGit(realHome, "user.name"),
    email: globalGit(realHome, "user.email"),
    npmrc: existsSync(join(realHome, ".npmrc")),
  };
  const plan = runHomePlan(facts, env);
  const home = mkdtempSync(join(tmpdir(), "tandem-test-home-"));
  writeFileSync(join(home, ".gitconfig"), plan.gitconfig);
  Object.assign(env, plan.vars, { HOME: home });
  return () => rmSync(home, { recursive: true, force: true });
}
