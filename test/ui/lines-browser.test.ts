import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentShell } from "../helpers/agent-shell.js";
import { tandem } from "../helpers/cli.js";
import { FOUR_FUNCTIONS } from "../helpers/four-functions.js";
import { claudeWrite, denied, hook, ledger, type Payload } from "../helpers/hooks.js";
import { patient } from "../helpers/patience.js";
import { g } from "../helpers/repo.js";
import { fileRepo, type OpenBoard, openBoard, SHOTS } from "./support.js";

/** Issue 40 item 1: the board shows each shared file's hunks and who wrote them (decision 0061). */

const PERSON = { TANDEM_SESSION: undefined, CLAUDE_CODE_SESSION_ID: undefined, CODEX_THREAD_ID: undefined };
const FILE = "src/shared.ts";
const ORIGINAL = FOUR_FUNCTIONS;

let repo: string;
let cleanup: () => void;
let opened: OpenBoard | undefined;
let page: Page;
const agents: Record<string, { CLAUDE_PID: string }> = {};
const names: Record<string, string> = {};

const as = (who: string) => ({ cwd: repo, env: { ...agents[who] } });
const read = () => readFileSync(join(repo, FILE), "utf8");

/** A Claude session starts and is prompted: its name as the board shows it. */
function start(who: string): string {
  agents[who] = agentShell();
  const payload = { session_id: who, cwd: repo, hook_event_name: "UserPromptSubmit", prompt: "go on" };
  expect(hook("claude-code", "user-prompt-submit", payload, as(who)).code).toBe(0);
  const started = ledger(repo).events.find(
    (e) => e.kind === "session.started" && (e.data as { nativeId: string }).nativeId === who,
  );
  return (started!.data as { name: string }).name;
}

/** One Edit through the real pre- and post-tool hooks, the tool's write between them. */
function edit(who: string, oldString: string, newString: string): void {
  const payload: Payload = {
    ...claudeWrite(repo, who, FILE),
    tool_name: "Edit",
    tool_input: {
      file_path: join(repo, FILE),
      old_string: oldString,
      new_string: newString,
      replace_all: false,
    },
  };
  expect(denied(hook("claude-code", "pre-tool-use", payload, as(who)))).toBeNull();
  writeFileSync(join(repo, FILE), read().replace(oldString, newString));
  hook("claude-code", "post-tool-use", { ...payload, hook_event_name: "PostToolUse" }, as(who));
}

/** Each row of a file's table: its cells' text. */
async function rowsOf(path: string): Promise<string[][]> {
  const rows = page.locator(`.line-files table[data-file="${path}"] tbody tr`);
  const out: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) out.push(await rows.nth(i).locator("td").allTextContents());
  return out;
}

beforeAll(async () => {
  ({ repo, cleanup } = fileRepo());
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, FILE), ORIGINAL);
  g(repo, "add", "--", FILE);
  g(repo, "commit", "-q", "-m", "shared file");
  names.A = start("A");
  names.B = start("B");
  // A holds the file; B's edit of another function meets it, and from then on Tandem tracks it by lines.
  edit("A", "return a;", "return a * 10;");
  edit("B", "return a + b;", "return a - b;");
  opened = await openBoard(repo, "#claims");
  page = opened.page;
});

afterAll(async () => {
  await opened?.close();
  cleanup?.();
});

describe("files shared by lines on the board", () => {
  it("lists each hunk of the shared file with its lines and its session and client", async () => {
    await page.locator(`.line-files table[data-file="${FILE}"]`).waitFor({ timeout: patient(20_000) });
    expect(await page.locator(".line-files h2").textContent()).toBe("Shared by lines (1)");
    expect(await rowsOf(FILE)).toEqual([
      ["line 4", "+1", "-1", `${names.A}claude-code`],
      ["line 16", "+1", "-1", `${names.B}claude-code`],
    ]);
    await page.screenshot({ path: join(SHOTS, "shared-by-lines.png") });
  });

  it("shows lines no hook announced as another writer's once Tandem reads them, without a reload", async () => {
    // A person's editor changes delta; `tandem blame` reads the file and records the lines as nobody's we know.
    writeFileSync(join(repo, FILE), read().replace("return 0;", "return -1;"));
    expect(tandem(["blame", FILE], { cwd: repo, env: PERSON }).code).toBe(0);
    const third = page.locator(`.line-files table[data-file="${FILE}"] tr[data-where="line 22"]`);
    await third.waitFor({ timeout: patient(20_000) });
    expect(await third.locator("td").allTextContents()).toEqual(["line 22", "+1", "-1", "another writer"]);
    expect(await third.locator(".writer").getAttribute("title")).toBe(
      "a person's editor, or a tool no hook saw",
    );
  });

  it("drops the file once its hunks are committed", async () => {
    g(repo, "add", "--", FILE);
    g(repo, "commit", "-q", "-m", "both", "--no-verify");
    expect(tandem(["blame", FILE], { cwd: repo, env: PERSON }).stdout).toBe(
      `${FILE}: no uncommitted changes.\n`,
    );
    await page.locator(".line-files").waitFor({ state: "detached", timeout: patient(20_000) });
  });
});
