import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeWrite, denied } from "../helpers/hooks.js";
import { g } from "../helpers/repo.js";
import { cleanEnv, type Env, scratch, startServer, stateDir, thinHook, watchServer } from "./support.js";

/**
 * The thin client's two ways to the server (docs/server.md §2): bash over the loopback port with
 * built-ins, sh with curl over the unix socket. Each test leaves the client only one way: the
 * Node fallback does not exist (TANDEM_NODE), so an unanswered call fails instead of passing.
 */
const SERVER_ONLY = { TANDEM_NODE: "/nonexistent/node" };
const sleepers: ChildProcess[] = [];
const fakes: Server[] = [];
afterAll(() => {
  for (const s of sleepers.splice(0)) s.kill();
  for (const f of fakes.splice(0)) f.close();
});

function liveProcess(): string {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  sleepers.push(child);
  return String(child.pid);
}

function newRepo(): string {
  const repo = join(scratch(), "repo");
  mkdirSync(repo);
  g(repo, "init", "-q", "-b", "main");
  g(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  watchServer(repo);
  return repo;
}

/** A PATH holding only the named programs: what the client may find decides its way. */
function pathWith(...programs: string[]): string {
  const dir = join(scratch("tandem-path-"), "bin");
  mkdirSync(dir);
  for (const p of programs) {
    const found = ["/usr/bin", "/bin", "/usr/local/bin"].map((d) => join(d, p));
    const target = found.find((f) => {
      try {
        return readFileSync(f).length > 0;
      } catch {
        return false;
      }
    });
    if (!target) throw new Error(`${p} is not installed`);
    symlinkSync(target, join(dir, p));
  }
  return dir;
}

/** A holds `é dir/f.txt`; B's write of it must come back refused, with the path, byte for byte. */
async function holdAndCollide(repo: string, env: Env) {
  const file = "é dir/f.txt";
  const a = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", file), {
    cwd: repo,
    env: cleanEnv({ ...SERVER_ONLY, CLAUDE_PID: liveProcess(), ...env }),
  });
  const b = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "B", file), {
    cwd: repo,
    env: cleanEnv({ ...SERVER_ONLY, CLAUDE_PID: liveProcess(), ...env }),
  });
  return { a, b, file };
}

const loopback = (repo: string) => {
  const [port, token, proof] = readFileSync(join(stateDir(repo), "serve.tcp"), "utf8")
    .trim()
    .split(" ");
  return { port: Number(port), token: token!, proof: proof! };
};

function post(port: number, headers: Record<string, string>): Promise<{ status: number; headers: object }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", path: "/", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end("tandem-thin 1\0");
  });
}

describe("the thin client's way to the server", () => {
  it("bash asks over the loopback port without curl, under a UTF-8 locale and under C", async () => {
    for (const LC_ALL of ["C.UTF-8", "C"]) {
      const repo = newRepo();
      await startServer(repo);
      const { a, b, file } = await holdAndCollide(repo, { PATH: pathWith("bash", "cat"), LC_ALL });
      expect([a.code, denied(a)]).toEqual([0, null]);
      expect(b.code).toBe(0);
      expect(denied(b)).toContain(file);
    }
  });

  it("sh without bash asks with curl over the unix socket", async () => {
    const repo = newRepo();
    await startServer(repo);
    const { a, b, file } = await holdAndCollide(repo, { PATH: pathWith("curl", "cat") });
    expect([a.code, denied(a)]).toEqual([0, null]);
    expect(denied(b)).toContain(file);
  });

  it("TANDEM_THIN_TRANSPORT=curl keeps bash on the socket too", async () => {
    const repo = newRepo();
    await startServer(repo);
    // A port nobody answers: bash would fall back to Node, which does not exist here.
    const { token, proof } = loopback(repo);
    writeFileSync(join(stateDir(repo), "serve.tcp"), `1 ${token} ${proof}\n`, { mode: 0o600 });
    const { b, file } = await holdAndCollide(repo, {
      PATH: pathWith("bash", "curl", "cat"),
      TANDEM_THIN_TRANSPORT: "curl",
    });
    expect(denied(b)).toContain(file);
  });

  it("the loopback port answers only its token, and proves itself in every answer", async () => {
    const repo = newRepo();
    await startServer(repo);
    const { port, token, proof } = loopback(repo);
    expect((await post(port, {})).status).toBe(403);
    expect((await post(port, { "x-tandem-token": `${token.slice(0, -1)}0` })).status).toBe(403);
    const ok = await post(port, { "x-tandem-token": token });
    // The body is no valid request: refused by the protocol, yet signed.
    expect(ok.status).toBe(400);
    expect(ok.headers).toMatchObject({ "x-tandem-proof": proof });
  });

  it("trusts no answer without the proof: a stranger on the port is ignored and Node answers", async () => {
    const repo = newRepo();
    await startServer(repo);
    const { token, proof } = loopback(repo);
    let asked = 0;
    const stranger = createServer((c) => {
      asked++;
      c.on("data", () => {});
      const body = "printf '%s' 'stranger'\nexit 0\n: tandem-end";
      c.end(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
    });
    fakes.push(stranger);
    await new Promise<void>((r) => stranger.listen(0, "127.0.0.1", () => r()));
    const port = (stranger.address() as { port: number }).port;
    writeFileSync(join(stateDir(repo), "serve.tcp"), `${port} ${token} ${proof}\n`, { mode: 0o600 });
    const r = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
      cwd: repo,
      env: cleanEnv({ CLAUDE_PID: liveProcess() }),
    });
    expect(asked).toBe(1);
    expect(r.stdout).not.toContain("stranger");
    expect(r.code).toBe(0);
    expect(denied(r)).toBeNull();
  });

  it("tells the server the caller's LC_ALL as it was (set, empty or unset), though bash asks under C", async () => {
    const repo = newRepo();
    await startServer(repo);
    const { token, proof } = loopback(repo);
    const requests: Buffer[] = [];
    const listener = createServer((c) => {
      const parts: Buffer[] = [];
      c.on("data", (d: Buffer) => {
        parts.push(d);
        // The chunked body ends with a zero-size chunk: then the request is whole.
        if (Buffer.concat(parts).includes("\r\n0\r\n\r\n")) {
          requests.push(Buffer.concat(parts));
          c.end("HTTP/1.1 503 Busy\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        }
      });
    });
    fakes.push(listener);
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()));
    const port = (listener.address() as { port: number }).port;
    writeFileSync(join(stateDir(repo), "serve.tcp"), `${port} ${token} ${proof}\n`, { mode: 0o600 });
    const seen: (string | null)[] = [];
    for (const LC_ALL of ["C.UTF-8", "", undefined]) {
      const env = cleanEnv({ ...SERVER_ONLY, PATH: pathWith("bash", "cat") });
      if (LC_ALL === undefined) delete env.LC_ALL;
      else env.LC_ALL = LC_ALL;
      await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo, env });
      const fields = requests.at(-1)!.toString("latin1").split("\0");
      // Each field is a chunk of its own: `<size>\r\n<field>\0\r\n`.
      const lcAll = fields.find((f) => /(?:^|\n)LC_ALL=/.test(f));
      seen.push(lcAll === undefined ? null : lcAll.slice(lcAll.indexOf("LC_ALL=") + 7));
      expect(fields.some((f) => f.includes("TANDEM_THIN_LC_ALL"))).toBe(false);
    }
    expect(requests).toHaveLength(3);
    expect(seen).toEqual(["C.UTF-8", "", null]);
  });
});
