import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { patient } from "../helpers/patience.js";

/** Quotes one word for the POSIX shell tmux runs the pane command with. */
export const sq = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * A private tmux server (its own socket, no user config) holding one pane: a
 * real pseudo-terminal whose screen the test reads back with `capture-pane`.
 */
export class Tmux {
  readonly socket = `tandem-watch-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  constructor(private readonly env: Record<string, string>) {}

  run(...args: string[]): string {
    const env: Record<string, string | undefined> = { ...process.env, ...this.env, TMUX: undefined };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], {
      env: env as NodeJS.ProcessEnv,
      encoding: "utf8",
    });
  }

  start(opts: { cwd: string; width: number; height: number; command: string }): void {
    const vars = Object.entries(this.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    this.run(
      "new-session",
      "-d",
      "-x",
      String(opts.width),
      "-y",
      String(opts.height),
      "-c",
      opts.cwd,
      ...vars,
      opts.command,
    );
  }

  /** The visible screen; with `escapes`, colours and attributes as escape sequences. */
  screen(escapes = false): string {
    return this.run("capture-pane", "-p", ...(escapes ? ["-e"] : []));
  }

  display(format: string): string {
    return this.run("display-message", "-p", format).trim();
  }

  /** Polls the screen until `ok` holds; fails with the last screen seen, so a failure shows what was drawn. */
  async waitFor(what: string, ok: (screen: string) => boolean, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + patient(timeoutMs);
    let last = "";
    while (Date.now() < deadline) {
      last = this.screen();
      if (ok(last)) return last;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what}; the screen showed:\n${last}`);
  }

  kill(): void {
    try {
      this.run("kill-server");
    } catch {
      // Already gone: the pane's command ended and took the server with it.
    }
  }
}
