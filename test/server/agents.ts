import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { RunResult } from "../helpers/cli.js";
import { afterEachFile } from "../helpers/per-file.js";
import type { Env } from "./support.js";

const DRIVER = fileURLToPath(new URL("./agent-driver.mjs", import.meta.url));
const running: ChildProcess[] = [];

/**
 * Becomes the leader of a new session whose controlling terminal is a new pseudo-terminal, then
 * execs argv[1] (same pid). The terminal's other end stays open in the agent, so it never hangs up.
 */
const WITH_TERMINAL = [
  "import fcntl, os, sys, termios",
  "master, slave = os.openpty()",
  "os.setsid()",
  "fcntl.ioctl(slave, termios.TIOCSCTTY, 0)",
  "os.close(slave)",
  "os.set_inheritable(master, True)",
  "os.execv(sys.argv[1], sys.argv[1:])",
].join("\n");

/**
 * A live stand-in for an agent client: a Node process whose name is the client's (`codex`,
 * `cursor`, `claude`), so Tandem discovers it as the agent behind the hooks and the commands it
 * runs, exactly as it discovers the real client: hooks run as its children.
 */
export class Agent {
  private next = 0;
  private readonly waiting = new Map<number, (r: RunResult) => void>();

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const a = JSON.parse(line) as RunResult & { id: number };
      this.waiting.get(a.id)?.({ code: a.code, stdout: a.stdout, stderr: a.stderr });
      this.waiting.delete(a.id);
    });
  }

  /**
   * An agent process named `name`; its launcher lives in `dir`. With `terminal`, it runs as a
   * client started from a person's terminal does: the leader of its own session with a controlling
   * terminal (a fresh pseudo-terminal), which the commands it runs inherit; its pipes stay as they are.
   */
  static start(name: string, dir: string, opts: { terminal?: boolean } = {}): Agent {
    const bin = join(dir, `agent-${name}-${running.length}`);
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, join(bin, name));
    const stdio: ["pipe", "pipe", "inherit"] = ["pipe", "pipe", "inherit"];
    const child = opts.terminal
      ? spawn("python3", ["-c", WITH_TERMINAL, join(bin, name), DRIVER], { stdio })
      : spawn(join(bin, name), [DRIVER], { stdio });
    running.push(child);
    return new Agent(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Runs `file args` as this agent's child (a hook, a shell command, `tandem status`). */
  run(file: string, args: string[], opts: { cwd: string; env: Env; input?: string }): Promise<RunResult> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify({ id, file, args, ...opts })}\n`);
    });
  }

  stop(): void {
    this.child.stdin!.end();
    this.child.kill();
  }
}

afterEachFile(() => {
  for (const c of running.splice(0)) c.kill();
});
