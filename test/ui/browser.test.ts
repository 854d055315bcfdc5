import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeWrite, hook } from "../helpers/hooks.js";
import { patient } from "../helpers/patience.js";
import { runScript } from "../subagents/sub-fixture.js";
import { DOC_IMAGES, docShot, fileRepo, type OpenBoard, openBoard, SHOTS } from "./support.js";

/** Screenshots land here on every run (git-ignored); the README's three are written to docs/images/. */

let repo: string;
let cleanup: () => void;
let opened: OpenBoard | undefined;
let page: Page;

const write = (session: string, file: string) =>
  hook("claude-code", "pre-tool-use", claudeWrite(repo, session, file), { cwd: repo });

async function view(key: string, name: string): Promise<void> {
  await page.keyboard.press(key);
  await page.locator(`nav button[data-view="${name}"][aria-selected="true"]`).waitFor();
}

beforeAll(async () => {
  ({ repo, cleanup } = fileRepo());
  write("sess-alice", "src/app.ts");
  write("sess-bob", "docs/guide.md");
  // A real `tandem sub` child: one commit and an uncommitted change, captured when it exits.
  runScript(
    repo,
    "printf 'export const answer = 42;\\n' > src/app.ts && git commit -qam 'Fix the answer' && echo more >> README.md",
    ["--name", "fixer"],
  );
  opened = await openBoard(repo);
  page = opened.page;
});

afterAll(async () => {
  await opened?.close();
  cleanup?.();
});

describe("tandem ui in Chromium", () => {
  it("shows each session with its state, and drops the token from the address bar", async () => {
    const rows = page.locator("tbody tr.row", { hasText: "claude-code" });
    expect(await rows.count()).toBe(2);
    const alice = rows.filter({ hasText: "agent-" }).first();
    expect(await alice.locator(".pill").textContent()).toBe("live");
    expect(await alice.textContent()).toMatch(/status ✗ task ✗ · no stop yet/);
    expect(page.url()).not.toContain("token=");
    expect(await page.locator('nav button[data-view="claims"]').textContent()).toBe("2 Claims (2)");
    // Enter on a row lists that session's recent events beneath it.
    await alice.focus();
    await page.keyboard.press("Enter");
    await page.locator("tr.detail ul.recent li", { hasText: "claim.acquired" }).first().waitFor();
    await docShot(page, "ui-sessions.png");
  });

  it("shows the claims as a tree with each file's holder", async () => {
    await view("2", "claims");
    const file = page.locator('.tree-file[data-path="src/app.ts"]');
    await file.waitFor();
    expect(await file.locator(".holder").textContent()).toMatch(/^agent-/);
    await docShot(page, "ui-claims.png");
  });

  it("shows a claim made while the page is open, without a reload", async () => {
    const marker = await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 1;
      return 1;
    });
    write("sess-bob", "src/lib/new-file.ts");
    await page.locator('.tree-file[data-path="src/lib/new-file.ts"]').waitFor({ timeout: patient(10_000) });
    // The same document: a reload would have lost the marker.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(marker);
  });

  it("lists the events newest first and filters them by kind with /", async () => {
    await page.keyboard.press("/");
    await page.locator('nav button[data-view="events"][aria-selected="true"]').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "filter by kind",
    );
    await page.keyboard.type("claim.acquired");
    // The unfiltered list is on screen until the filter applies: wait for the filtered one.
    const kinds = async () => new Set(await page.locator(".ev .kind").allTextContents());
    await expect.poll(kinds, { timeout: patient(10_000) }).toEqual(new Set(["claim.acquired"]));
    const seqs = (await page.locator(".ev .seq").allTextContents()).map(Number);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    await page.keyboard.press("Escape");
    await page.screenshot({ path: join(SHOTS, "events.png") });
  });

  it("renders a sub-agent's captured commit and uncommitted patch as highlighted side-by-side diffs", async () => {
    await view("4", "subagents");
    await page.locator('tr[data-sub="fixer"]').click();
    await page
      .locator(".d2h-file-side-diff")
      .first()
      .waitFor({ timeout: patient(10_000) });
    const text = await page.locator(".sub-detail").textContent();
    expect(text).toContain("Commit: Fix the answer");
    expect(text).toContain("Uncommitted changes");
    expect(text).toMatch(/tandem sub apply sub_\w+/);
    expect(await page.locator(".sub-detail .hljs-number, .sub-detail .hljs-keyword").count()).toBeGreaterThan(
      0,
    );
    await page.screenshot({ path: join(DOC_IMAGES, "ui-subagents.png"), fullPage: false });
  });

  it("shows the doctor's findings in Problems", async () => {
    await view("5", "problems");
    await page
      .locator("ul.findings li")
      .first()
      .waitFor({ timeout: patient(20_000) });
    expect(await page.locator(".view").textContent()).toContain("tandem init");
    await page.screenshot({ path: join(SHOTS, "problems.png") });
  });
});
