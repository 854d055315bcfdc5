import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { TANDEM_BIN } from "../helpers/cli.js";
import { g, initRepo } from "../helpers/repo.js";

/** Debian's Chromium; the browser tests fail, never skip, without it. */
export function chromiumPath(): string {
  const path = process.env.TANDEM_CHROMIUM ?? "/usr/bin/chromium";
  if (!existsSync(path))
    throw new Error(
      `Chromium is not installed at ${path}: the browser tests need it. Install it with \`apt-get install -y chromium\` (or set TANDEM_CHROMIUM to its path).`,
    );
  return path;
}

/** Chromium as root (CI) needs --no-sandbox; a fixed window keeps screenshots comparable. */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"];

/** A repository for a whole test file (vitest's per-test temp dirs would vanish between tests). */
export function fileRepo(): { base: string; repo: string; cleanup: () => void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "tandem-ui-")));
  const repo = initRepo(join(base, "repo"), {
    "README.md": "hello\n",
    "src/app.ts": "export const answer = 41;\n",
  });
  g(repo, "config", "user.name", "UI Test");
  g(repo, "config", "user.email", "ui@tandem.invalid");
  return {
    base,
    repo,
    cleanup: () => {
      rmSync(base, { recursive: true, force: true });
      rmSync(`${base}.store-id`, { force: true });
    },
  };
}

export interface Board {
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** `tandem ui` from the built binary, as a user starts it; resolves once it printed its URL. */
export function startBoard(
  repo: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Board> {
  const child = spawn(process.execPath, [TANDEM_BIN, "ui", ...args], {
    cwd: repo,
    env: { ...process.env, XDG_CONFIG_HOME: "/nonexistent/tandem-test-xdg", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tandem ui printed no URL: ${out}${err}`)), 15_000);
    child.on("exit", (code) => reject(new Error(`tandem ui exited ${code}: ${out}${err}`)));
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[0],
        port: Number(m[1]),
        token: m[2]!,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/** Where the browser tests put their screenshots. */
export const SHOTS = join(process.cwd(), "test-results", "ui");

export interface OpenBoard {
  page: Page;
  /** Closes the browser and stops the board. */
  close: () => Promise<void>;
}

/** `tandem ui` over `repo` in Chromium, a fixed window, the page at `view` (`#claims`) and ready. */
export async function openBoard(repo: string, view = ""): Promise<OpenBoard> {
  const executablePath = chromiumPath();
  mkdirSync(SHOTS, { recursive: true });
  const board = await startBoard(repo);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const close = async () => {
    await browser.close();
    await board.stop();
  };
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${board.url}${view}`);
    await page.locator("body[data-ready='1']").waitFor();
    return { page, close };
  } catch (e) {
    await close();
    throw e;
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with headers as given (fetch would not let a test set Host). */
export function ask(
  port: number,
  path: string,
  o: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port, path, method: o.method ?? "GET", headers: o.headers },
      (res) => {
        let body = "";
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/**
 * The README's pictures: the browser tests write them on every run, so they show the product as
 * it is (a changed picture is a change to commit, never a failure).
 */
export const DOC_IMAGES = join(import.meta.dirname, "..", "..", "docs", "images");

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A page showing `text` as a terminal window titled `title` shows it, for a screenshot of `.term`. */
export function terminalPage(title: string, text: string): string {
  return `<!doctype html><meta charset="utf-8"><style>
body{margin:0;padding:16px;background:#fff;font-family:sans-serif}
.term{display:inline-block;border-radius:8px;overflow:hidden;box-shadow:0 2px 10px #0004;max-width:1100px}
.bar{background:#3b3f45;color:#ddd;font-size:13px;padding:6px 12px}
pre{margin:0;padding:12px 16px;background:#1e2127;color:#e6e6e6;font:14px/1.4 "DejaVu Sans Mono",monospace;white-space:pre-wrap}
</style><div class="term"><div class="bar">${escapeHtml(title)}</div><pre>${escapeHtml(text)}</pre></div>`;
}

/** A screenshot of the board for the README, cut below the view's content (at most the viewport). */
export async function docShot(page: Page, name: string): Promise<void> {
  const bottom = await page.evaluate(() => {
    const view = document.querySelector("main .view");
    const kids = view ? [...view.querySelectorAll("*")] : [];
    return Math.max(120, ...kids.map((k) => k.getBoundingClientRect().bottom));
  });
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const height = Math.min(size.height, Math.ceil(bottom) + 24);
  await page.screenshot({ path: join(DOC_IMAGES, name), clip: { x: 0, y: 0, width: size.width, height } });
}
