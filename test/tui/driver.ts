import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { procInfo } from "../../src/sessions/proc.js";
import { suiteMarks } from "../helpers/leftovers.js";
import { patient } from "../helpers/patience.js";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Git-ignored; every captured screen is kept here as an artifact of the run. */
export const SCREENS_DIR = join(REPO_ROOT, ".cache", "tui-screens");

export interface TuiStart {
  /** Names the artifact folder: `.cache/tui-screens/<test>/`. */
  test: string;
  cmd: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment: the client sees nothing else (no outer agent session leaks in). */
  env: Record<string, string>;
  cols?: number;
  rows?: number;
}

/**
 * One client UI in a detached tmux session on a private tmux server (its own socket), so tests
 * never touch anyone's tmux. Every capture is saved; failures name the file to look at.
 */
export class Tui {
  private readonly socket: string;
  private readonly dir: string;
  private step = 0;
  private closed = false;

  private readonly session = "ui";
  private static count = 0;

  private constructor(test: string) {
    Tui.count += 1;
    this.socket = `tandem-tui-${process.pid}-${Tui.count}`;
    this.dir = join(SCREENS_DIR, test);
    // Screens of an earlier run would mix with this run's.
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
  }

  static start(o: TuiStart): Tui {
    const t = new Tui(o.test.replace(/[^\w.-]+/g, "-"));
    // `env -i` clears the environment: the suite's marks go back in, so a client left running is found.
    const env = Object.entries({ ...suiteMarks(), ...o.env }).map(([k, v]) => `${k}=${v}`);
    t.tmux([
      "new-session",
      "-d",
      "-s",
      t.session,
      "-x",
      String(o.cols ?? 120),
      "-y",
      String(o.rows ?? 40),
      "-c",
      o.cwd,
      "env",
      "-i",
      ...env,
      o.cmd,
      ...o.args,
      // A client that exits at once leaves its last words on screen instead of an empty capture.
      ";",
      "set-option",
      "-t",
      t.session,
      "remain-on-exit",
      "on",
    ]);
    return t;
  }

  /** The pid of the process running in the pane (the client itself: tmux runs env, which execs it). */
  panePid(): number {
    return Number(this.tmux(["list-panes", "-t", this.session, "-F", "#{pane_pid}"], true).trim());
  }

  /** Types text literally, then Enter. */
  async say(text: string): Promise<void> {
    this.type(text);
    await sleep(300);
    this.key("Enter");
  }

  /** Types text literally, without Enter. */
  type(text: string): void {
    this.tmux(["send-keys", "-t", this.session, "-l", text]);
  }

  key(name: string): void {
    this.tmux(["send-keys", "-t", this.session, name]);
  }

  /** The visible screen plus scrollback, saved as the next numbered artifact named `label`. */
  capture(label: string): { text: string; file: string } {
    const text = this.closed
      ? ""
      : this.tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", this.session], true);
    this.step += 1;
    const file = join(this.dir, `${String(this.step).padStart(2, "0")}-${label}.txt`);
    writeFileSync(file, text);
    return { text, file };
  }

  /**
   * Polls the screen until `want` holds, and has held for `stableMs` (a client can look idle for a
   * moment between two hooks of one turn). Throws with the saved screen's path on timeout.
   */
  async waitFor(
    label: string,
    want: RegExp | ((screen: string) => boolean),
    { timeoutMs = 30_000, stableMs = 0 } = {},
  ): Promise<string> {
    const test = typeof want === "function" ? want : (s: string) => want.test(s);
    const deadline = Date.now() + patient(timeoutMs);
    let since: number | null = null;
    for (;;) {
      const text = this.screen();
      if (test(text)) {
        since ??= Date.now();
        if (Date.now() - since >= stableMs) {
          this.capture(label);
          return text;
        }
      } else since = null;
      if (Date.now() > deadline) {
        const { file } = this.capture(`${label}-TIMEOUT`);
        throw new Error(
          `TUI: timed out after ${timeoutMs} ms waiting for ${String(want)}; screen saved in ${file}`,
        );
      }
      await sleep(250);
    }
  }

  private screen(): string {
    return this.closed ? "" : this.tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", this.session], true);
  }

  /** Asserts on a saved screen, naming the file when it fails. */
  expectScreen(label: string, check: (screen: string) => string | null): string {
    const { text, file } = this.capture(label);
    const problem = check(text);
    if (problem) throw new Error(`TUI: ${problem}; screen saved in ${file}`);
    return text;
  }

  /**
   * Closes the terminal: tmux ends and the client gets SIGHUP. Waits (up to 10 s) until the client
   * process is gone, so it writes nothing into a temp dir a test is about to remove.
   */
  async kill(): Promise<void> {
    if (this.closed) return;
    const pid = this.panePid();
    this.closed = true;
    this.tmux(["kill-server"], true);
    await until("the client exits after its terminal closed", () => !isRunning(pid), 10_000);
  }

  private tmux(args: string[], tolerant = false): string {
    const r = spawnSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
    if (r.error) throw new Error(`TUI: cannot run tmux (${r.error.message}); install tmux to run test/tui`);
    if (r.status !== 0 && !tolerant) throw new Error(`TUI: tmux ${args[0]} failed: ${r.stderr.trim()}`);
    return r.stdout;
  }
}

/** Running, and not a zombie waiting to be collected (procInfo reads its state). */
const isRunning = (pid: number): boolean => procInfo(pid) !== null;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls a condition (e.g. the ledger) until it holds; returns how long it took. */
export async function until(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<number> {
  const start = Date.now();
  while (!(await cond())) {
    if (Date.now() - start > patient(timeoutMs))
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(250);
  }
  return Date.now() - start;
}
