import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What the jail tests share: they run as an unprivileged user (the kernel lets one jail itself;
 * sessions and CI run as root), in temp directories that live for the whole file.
 */
export const USER = "tandemjail";
export const DIST = fileURLToPath(new URL("../../dist", import.meta.url));
export const asRoot = process.getuid?.() === 0;

/** `argv` as the unprivileged user when running as root; as it is otherwise. */
export const asUser = (argv: readonly string[]): string[] =>
  asRoot ? ["runuser", "-u", USER, "--", ...argv] : [...argv];

/** Creates the unprivileged user when running as root (CI starts clean); its uid and home. */
export function jailUser(): { uid: number; home: string } {
  if (!asRoot) return { uid: process.getuid?.() ?? -1, home: process.env.HOME ?? "/tmp" };
  if (spawnSync("id", ["-u", USER]).status !== 0) {
    const made = spawnSync("useradd", ["-m", USER], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`cannot create the test user ${USER}: ${made.stderr}`);
  }
  const uid = Number(spawnSync("id", ["-u", USER], { encoding: "utf8" }).stdout.trim());
  return { uid, home: `/home/${USER}` };
}

/** The base environment of a jailed run: no server, a UTF-8 locale, the user's home. */
export function jailEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, TANDEM_SERVER: "0", LANG: "C.UTF-8", ...extra };
}

/** Temp directories for a whole test file: `make` one, `removeAll` in its afterAll. */
export function fileTempDirs(): { make: (prefix: string) => string; removeAll: () => void } {
  const made: string[] = [];
  return {
    make(prefix) {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Ends the standing jails' holders recorded under `repo` (decision 0079). They would end within a
 * second of their agents; a test file ends them with its agents so none outlives it.
 */
export function endHolders(repo: string): void {
  const dir = join(repo, ".git/tandem/jail");
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".holder"))) {
    try {
      const { pid } = JSON.parse(readFileSync(join(dir, f), "utf8")) as { pid: number };
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already, or a record half written by a hook killed mid-way.
    }
  }
}
