import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
