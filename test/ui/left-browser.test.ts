import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, denied, hook, ledger } from "../helpers/hooks.js";
import { patient } from "../helpers/patience.js";
import { fileRepo, type OpenBoard, openBoard, SHOTS } from "./support.js";

/** Issue 26: the board shows left work, uncommitted files of sessions that ended (decision 0029). */

const PERSON = { TANDEM_SESSION: undefined, CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined };

let repo: string;
let cleanup: () => void;
let opened: OpenBoard | undefined;
let page: Page;
let owner: string;

/** A Claude session starts, declares its task, writes `file` through its hooks and ends (/exit). */
function leavesWork(session: string, file: string, task: string): string {
  const env = agentShell();
  const as = { cwd: repo, env };
  hook(
    "claude-code",
    "session-start",
    { session_id: session, cwd: repo, hook_event_name: "SessionStart" },
    as,
  );
  expect(tandem(["task", task, "--session", session], { cwd: repo, inside: env }).code).toBe(0);
  const write = claudeWrite(repo, session, file, `${session}'s work\n`);
  expect(denied(hook("claude-code", "pre-tool-use", write, as))).toBeNull();
  writeFileSync(join(repo, file), `${session}'s work\n`);
  hook("claude-code", "post-tool-use", { ...write, hook_event_name: "PostToolUse" }, as);
  const end = { session_id: session, cwd: repo, hook_event_name: "SessionEnd", reason: "prompt_input_exit" };
  expect(hook("claude-code", "session-end", end, as).code).toBe(0);
  const started = ledger(repo).events.find(
    (e) => e.kind === "session.started" && (e.data as { nativeId: string }).nativeId === session,
  );
  return (started!.data as { name: string }).name;
}

beforeAll(async () => {
  ({ repo, cleanup } = fileRepo());
  owner = leavesWork("sess-amber", "src/app.ts", "fix the answer");
  opened = await openBoard(repo, "#claims");
  page = opened.page;
});

afterAll(async () => {
  await opened?.close();
  cleanup?.();
});

describe("left work on the board", () => {
  it("lists each left file with its former owner, task, when it ended and the commands that settle it", async () => {
    const row = page.locator('.left-work tr[data-left="src/app.ts"]');
    await row.waitFor({ timeout: patient(20_000) });
    expect(await page.locator(".left-work h2").textContent()).toBe("Left work of ended sessions (1)");
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(0, 5)).toEqual([
      "src/app.ts",
      owner,
      "claude-code",
      "fix the answer",
      expect.stringMatching(/^ended \d+[sm] ago$/),
    ]);
    expect(await row.locator(".commands code").allTextContents()).toEqual([
      `tandem recover src/app.ts --session ${owner}`,
      "tandem discard src/app.ts --yes",
    ]);
    expect(await page.locator('nav button[data-view="claims"]').textContent()).toBe("2 Claims (0 · 1 left)");
    await page.screenshot({ path: join(SHOTS, "left-work.png") });
  });

  it("adds and drops left work as it comes and goes, without a reload", async () => {
    const marker = await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 1;
      return 1;
    });
    const other = leavesWork("sess-birch", "README.md", "reword the readme");
    await page.locator('.left-work tr[data-left="README.md"]').waitFor({ timeout: patient(20_000) });
    expect(await page.locator('.left-work tr[data-left="README.md"] td').nth(1).textContent()).toBe(other);

    const gone = tandem(["discard", "src/app.ts", "README.md", "--yes"], { cwd: repo, env: PERSON });
    expect(gone.stderr).toBe("");
    await page.locator(".left-work").waitFor({ state: "detached", timeout: patient(20_000) });
    expect(await page.locator('nav button[data-view="claims"]').textContent()).toBe("2 Claims (0)");
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(marker);
  });
});
