import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parsePsLine, processAlive, procInfo } from "../../src/sessions/proc.js";

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
