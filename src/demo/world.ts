import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { shellQuote } from "../wiring/hook-command.js";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const IDENTITY = {
  GIT_AUTHOR_NAME: "Tandem Demo",
  GIT_AUTHOR_EMAIL: "demo@tandem.invalid",
  GIT_COMMITTER_NAME: "Tandem Demo",
  GIT_COMMITTER_EMAIL: "demo@tandem.invalid",
};

/**
 * A throwaway workspace for `tandem demo`: a repository with a bare remote, and
 * helpers that drive the real `tandem` binary and its hook entry points.
 */
export class World {
  readonly base: string;
  readonly repo: string;
  readonly remote: string;
  private readonly bin: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(bin: string) {
    this.bin = bin;
    this.base = realpathSync(mkdtempSync(join(tmpdir(), "tandem-demo-")));
    this.repo = join(this.base, "project");
    this.remote = join(this.base, "origin.git");
    const clean: NodeJS.ProcessEnv = {};
    // The demo's sessions must not be mistaken for the caller's own agent session.
    for (const [k, v] of Object.entries(process.env)) {
      if (!/^(CLAUDE|CODEX_|TANDEM_|GIT_)/.test(k)) clean[k] = v;
    }
    // Child worktrees go under the state home: keep them inside the base, which cleanUp deletes.
    this.env = {
      ...clean,
      ...IDENTITY,
      XDG_CONFIG_HOME: join(this.base, "xdg"),
      XDG_STATE_HOME: join(this.base, "state"),
    };
  }

  run(
    cmd: string,
    args: string[],
    opts: { env?: Record<string, string>; input?: string; cwd?: string } = {},
  ): Run {
    const res = spawnSync(cmd, args, {
      cwd: opts.cwd ?? this.repo,
      env: { ...this.env, ...opts.env },
      input: opts.input ?? "",
      encoding: "utf8",
    });
    return {
      code: res.status ?? -1,
      stdout: res.stdout ?? "",
      stderr: res.stderr ?? res.error?.message ?? "",
    };
  }

  git(args: string[], env: Record<string, string> = {}): Run {
    return this.run("git", args, { env });
  }

  tandem(args: string[], env: Record<string, string> = {}): Run {
    return this.run(process.execPath, [this.bin, ...args], { env });
  }

  hook(client: string, event: string, payload: object, env: Record<string, string> = {}): Run {
    return this.run(process.execPath, [this.bin, "hook", client, event], {
      env,
      input: JSON.stringify(payload),
    });
  }

  write(file: string, text: string): void {
    const abs = join(this.repo, file);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }

  /** The repository with one pushed commit, Tandem's hooks wired and committed. */
  setUp(): void {
    mkdirSync(this.repo);
    this.run("git", ["init", "-q", "--bare", "-b", "main", this.remote], { cwd: this.base });
    this.git(["init", "-q", "-b", "main"]);
    this.write("README.md", "# demo project\n");
    this.write("src/app.ts", "export const answer = 41;\n");
    // A throwaway repository on this machine: pinning this node and bundle is right here.
    const pinned = `${shellQuote(process.execPath)} ${shellQuote(this.bin)}`;
    const init = this.tandem(["init", "--command", pinned, "--clients", "claude-code,codex"]);
    if (init.code !== 0) throw new Error(`tandem init failed: ${init.stderr}`);
    for (const args of [
      ["add", "-A"],
      ["commit", "-qm", "initial"],
      ["remote", "add", "origin", this.remote],
      ["push", "-qu", "origin", "main"],
    ]) {
      const r = this.git(args);
      if (r.code !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr}`);
    }
  }

  cleanUp(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}
