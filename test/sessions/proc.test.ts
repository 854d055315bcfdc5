import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  parsePsLine,
  parseTerminalLine,
  processAlive,
  procInfo,
  terminalOf,
} from "../../src/sessions/proc.js";

/** Starts `sleep 30` as the un-reaping parent of an exited child; returns both pids. */
async function parentOfZombie(): Promise<{ parent: number; zombie: number; stop: () => void }> {
  const sh = spawn("sh", ["-c", "true & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
  const zombie = await new Promise<number>((resolve) =>
    sh.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))),
  );
  // `true` exits at once; `sleep` (which the shell became) never waits for it.
  for (let i = 0; i < 50 && procInfo(zombie) !== null; i++) await new Promise((r) => setTimeout(r, 20));
  return { parent: sh.pid!, zombie, stop: () => sh.kill() };
}

describe("process facts", () => {
  it("reports a running process with a start stamp that tells a recycled pid apart", () => {
    const me = procInfo(process.pid);
    expect(me?.pid).toBe(process.pid);
    expect(processAlive(process.pid, me!.start)).toBe(true);
    expect(processAlive(process.pid, "proc:0")).toBe(false);
  });

  it("treats an exited process its parent has not collected (a zombie) as gone, though its parent lives", async () => {
    const { parent, zombie, stop } = await parentOfZombie();
    try {
      expect(processAlive(parent, null)).toBe(true);
      expect(procInfo(zombie)).toBeNull();
      expect(processAlive(zombie, null)).toBe(false);
    } finally {
      stop();
    }
  });

  it.each([
    [" 1125  1124 Ss   Wed Dec  2 04:11:12 2026 bash", { pid: 1125, ppid: 1124, command: "bash" }],
    ["42 1 S+ Mon Jan 12 23:59:01 2026 claude code", { pid: 42, ppid: 1, command: "claude code" }],
    ["77 2 Z Wed Dec  2 04:11:12 2026 defunct", null],
    ["77 2 S mer.  2 déc. 04:11:12 2026 bash", null],
    ["", null],
  ])("reads the ps line %j (ps always runs in the C locale)", (line, want) => {
    const got = parsePsLine(line);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatchObject(want);
  });

  it("gives one start stamp for a process however ps pads the day", () => {
    const a = parsePsLine("1 0 S Wed Dec  2 04:11:12 2026 x");
    const b = parsePsLine("1 0 S Wed Dec 2 04:11:12 2026 x");
    expect(a?.start).toBe("ps:Wed Dec 2 04:11:12 2026");
    expect(b?.start).toBe(a?.start);
  });
});

describe("a process's terminal session", () => {
  it.each([
    ["Ss   15672 ?", { session: "ps:15672", tty: false }],
    ["Rs+   9129 pts/0", { session: "ps:9129", tty: true }],
    ["S    402 ??", { session: "ps:402", tty: false }],
    ["Ss+ 402 ttys001", { session: "ps:402", tty: true }],
    ["Z    402 ?", null],
    ["", null],
  ])("reads the ps line %j", (line, want) => {
    expect(parseTerminalLine(line)).toEqual(want);
  });

  it("tells a process with a controlling terminal from one started in a new session without one", async () => {
    const inTerminal = spawn("script", ["-qfec", "sleep 30", "/dev/null"], { stdio: "ignore" });
    const detached = spawn("setsid", ["sleep", "30"], { stdio: "ignore" });
    try {
      // script's child (the shell, then sleep) leads a session on the new pseudo-terminal.
      let leader: number | undefined;
      for (let i = 0; i < 200 && leader === undefined; i++) {
        leader = childOf(inTerminal.pid!);
        if (leader === undefined) await new Promise((r) => setTimeout(r, 25));
      }
      expect(terminalOf(leader!)).toEqual({ session: `proc:${leader}`, tty: true });
      expect(terminalOf(detached.pid!)).toEqual({ session: `proc:${detached.pid}`, tty: false });
      expect(terminalOf(process.pid)?.session).not.toBe(`proc:${detached.pid}`);
    } finally {
      inTerminal.kill();
      detached.kill();
    }
  });
});

/** The first child of `pid` (Linux /proc). */
function childOf(pid: number): number | undefined {
  const r = spawnSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
  const first = r.stdout.trim().split("\n")[0];
  return first ? Number(first) : undefined;
}
