import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENTS } from "../../src/clients/index.js";
import { discoverAgent } from "../../src/sessions/discover.js";
import { tempDir } from "../helpers/repo.js";

/**
 * `node [options] <dir>/<script> <prompt…>` running `sh -c 'echo $$; sleep 30'`, as Gemini CLI runs
 * a hook: returns the node process's pid and the shell's (the hook's parent).
 */
async function nodeRunning(
  script: string,
  prompt: string,
  threadName?: string,
): Promise<{ node: number; hook: number; stop: () => void }> {
  const file = join(tempDir(), script);
  // Node 24 names its main thread "MainThread", which /proc reports as the process's name.
  const rename = threadName
    ? `require("fs").writeFileSync("/proc/self/comm", ${JSON.stringify(threadName)});`
    : "";
  writeFileSync(
    file,
    `${rename}require("child_process").spawn("sh", ["-c", "echo $$; exec sleep 30"], { stdio: ["ignore", "inherit", "ignore"] });`,
  );
  const node = spawn(process.execPath, ["--no-warnings", file, prompt], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const hook = await new Promise<number>((resolve) =>
    node.stdout.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))),
  );
  // The hook's shell became `sleep 30` (exec): it outlives node unless it is ended too.
  const stop = () => {
    node.kill();
    try {
      process.kill(hook);
    } catch {
      // Already gone.
    }
  };
  return { node: node.pid!, hook, stop };
}

describe("finding the agent behind a hook", () => {
  it("takes a node process whose script is named for the client (Gemini CLI's gemini.js)", async () => {
    const run = await nodeRunning("gemini.js", "a prompt");
    try {
      expect(discoverAgent(CLIENTS["gemini-cli"], {}, run.hook)?.pid).toBe(run.node);
    } finally {
      run.stop();
    }
  });

  it.runIf(process.platform === "linux").each([
    ["named node", undefined],
    ["named MainThread, as Node 24 names it", "MainThread"],
  ])("passes over a node process that runs another script (%s)", async (_name, threadName) => {
    const run = await nodeRunning("other.js", "a prompt", threadName);
    try {
      expect(discoverAgent(CLIENTS["gemini-cli"], {}, run.hook)?.pid).not.toBe(run.node);
    } finally {
      run.stop();
    }
  });

  it("does not take a node process that only mentions the client in its later arguments", async () => {
    const run = await nodeRunning("other.js", "ask gemini about it");
    try {
      expect(discoverAgent(CLIENTS["gemini-cli"], {}, run.hook)?.pid).not.toBe(run.node);
    } finally {
      run.stop();
    }
  });
});
