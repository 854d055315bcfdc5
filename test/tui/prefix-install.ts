import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { patient } from "../helpers/patience.js";
import { withRegistryTls } from "../helpers/registry-tls.js";
import { g, initRepo } from "../helpers/repo.js";

/**
 * A person's machine where Tandem is installed with `npm install -g --prefix` from the packed
 * tarball, and `<prefix>/bin` is on the PATH of their terminal only (set in ~/.bashrc, as nvm and
 * many prefix setups do): a login shell, which is how Codex's shell tool starts, resets PATH
 * (/etc/profile) and finds no `tandem`. Installs run offline from npm's cache with the addon this
 * checkout built, as test/install does.
 */

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const ADDON = join(REPO, "node_modules/better-sqlite3/build/Release/better_sqlite3.node");
const NPM_FLAGS = ["--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"];

export interface PrefixMachine {
  base: string;
  prefix: string;
  home: string;
  repo: string;
  /** The person's terminal: `<prefix>/bin` first, then Node's directory and the system's. */
  env: Record<string, string>;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: patient(240_000) });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Packs this checkout (dist/ is built by the global setup) and installs it into a fresh prefix. */
export function prefixMachine(): PrefixMachine {
  // Not tempDir(): that is removed after each test, and a Codex daemon may still write here.
  const base = mkdtempSync(join(tmpdir(), "tui-prefix-"));
  const npmEnv = withRegistryTls(process.env);
  const packed = run("npm", ["pack", "--ignore-scripts", "--pack-destination", base], REPO, npmEnv);
  const tgz = join(base, packed.trim().split("\n").at(-1)!);
  const prefix = join(base, "prefix");
  run("npm", ["install", "-g", "--prefix", prefix, tgz, ...NPM_FLAGS], base, npmEnv);
  const addon = join(prefix, "lib/node_modules/tandem/node_modules/better-sqlite3/build/Release");
  mkdirSync(addon, { recursive: true });
  copyFileSync(ADDON, join(addon, "better_sqlite3.node"));
  const home = join(base, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".bashrc"), `PATH="${join(prefix, "bin")}:$PATH"\n`);
  const env = {
    PATH: `${join(prefix, "bin")}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    GIT_AUTHOR_NAME: "Agent",
    GIT_AUTHOR_EMAIL: "agent@example.invalid",
    GIT_COMMITTER_NAME: "Agent",
    GIT_COMMITTER_EMAIL: "agent@example.invalid",
  };
  const repo = initRepo(join(base, "repo"));
  return { base, prefix, home, repo, env };
}

/** `tandem init` as the person runs it from their terminal, then the wiring committed. */
export function initFromPrefix(m: PrefixMachine, clients: string): string {
  const out = run("tandem", ["init", "--clients", clients], m.repo, { ...m.env });
  g(m.repo, "add", "-A");
  run("git", ["commit", "-qm", "tandem init"], m.repo, { ...process.env, ...m.env });
  return out;
}
