import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, hook } from "../helpers/hooks.js";
import { CHROMIUM_ARGS, chromiumPath, DOC_IMAGES, fileRepo, terminalPage } from "./support.js";

/**
 * Issue 42 §7: the README shows what an agent reads, the status box and a refusal, as this build
 * prints them. Both come from real hook calls and a real `tandem status`; the test draws the text
 * in a terminal-like page and writes the pictures into docs/images/ on every run.
 */

let repo: string;
let cleanup: () => void;
let browser: Browser;
let page: Page;
let alice: { CLAUDE_PID: string };
let bob: { CLAUDE_PID: string };

/** A Claude session of its own agent process, which starts with one declared task. */
function session(id: string, task: string): { CLAUDE_PID: string } {
  const agent = agentShell();
  const start = { session_id: id, cwd: repo, hook_event_name: "SessionStart" };
  expect(hook("claude-code", "session-start", start, { cwd: repo, env: agent }).code).toBe(0);
  expect(tandem(["task", task, "--session", id], { cwd: repo, inside: agent }).code).toBe(0);
  return agent;
}

/** One agent's write through its pre-tool hook: the refusal it reads, or null when allowed. */
function write(id: string, agent: { CLAUDE_PID: string }, file: string): string | null {
  return denied(hook("claude-code", "pre-tool-use", claudeWrite(repo, id, file), { cwd: repo, env: agent }));
}

async function shoot(name: string, title: string, text: string): Promise<void> {
  await page.setContent(terminalPage(title, text));
  await page.locator(".term").screenshot({ path: join(DOC_IMAGES, name) });
}

beforeAll(async () => {
  const executablePath = chromiumPath();
  ({ repo, cleanup } = fileRepo());
  // Alice holds src/app.ts and has changed it; Bob, a live peer, is about to write it too.
  alice = session("sess-alice", "port the parser");
  expect(write("sess-alice", alice, "src/app.ts")).toBeNull();
  writeFileSync(join(repo, "src/app.ts"), "export const answer = 42;\n");
  bob = session("sess-bob", "tidy the docs");
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  mkdirSync(DOC_IMAGES, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  cleanup?.();
});

describe("the README's pictures of what an agent reads", () => {
  it("a refused edit names the holder, its task and what to do", async () => {
    const refusal = write("sess-bob", bob, "src/app.ts");
    expect(refusal).toMatch(/src\/app\.ts: held by agent-\w+ \(claude-code, task "port the parser"/);
    expect(refusal).toContain("What to do:");
    await shoot("refusal.png", "Claude Code: Write src/app.ts, refused by Tandem's pre-tool hook", refusal!);
  });

  it("the status box shows the session's task, claims, uncommitted changes and peers", async () => {
    const status = tandem(["status"], { cwd: repo, inside: alice });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("port the parser");
    expect(status.stdout).toMatch(/claims\s+1: src\/app\.ts/);
    expect(status.stdout).toContain("tidy the docs");
    await shoot("status-box.png", "tandem status (run by the agent at the end of its turn)", status.stdout);
  });
});
