import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processAlive, procInfo } from "../../src/sessions/proc.js";

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
});
