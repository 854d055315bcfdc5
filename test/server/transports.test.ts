import { afterAll, describe, expect, it } from "vitest";
import { claudeWrite, denied } from "../helpers/hooks.js";
import {
  closeFakes,
  httpAnswer,
  liveProcess,
  newRepo,
  pathWith,
  provingListener,
  publishPort,
} from "./loopback-fakes.js";
import { cleanEnv, type Env, startServer, thinHook } from "./support.js";

/**
 * The thin client's two ways to the server (docs/server.md §2): bash over the loopback port with
 * built-ins, sh with curl over the unix socket. Each test leaves the client only one way: the
 * Node fallback does not exist (TANDEM_NODE), so an unanswered call fails instead of passing.
 * The loopback handshake and what a squatter on the port sees: loopback-handshake.test.ts.
 */
const SERVER_ONLY = { TANDEM_NODE: "/nonexistent/node" };
afterAll(closeFakes);

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
    const { a, b, file } = await holdAndCollide(repo, { PATH: pathWith("curl", "cat", "rm") });
    expect([a.code, denied(a)]).toEqual([0, null]);
    expect(denied(b)).toContain(file);
  });

  it("TANDEM_THIN_TRANSPORT=curl keeps bash on the socket too", async () => {
    const repo = newRepo();
    await startServer(repo);
    // A port nobody answers: bash would fall back to Node, which does not exist here.
    publishPort(repo, 1);
    const { b, file } = await holdAndCollide(repo, {
      PATH: pathWith("bash", "curl", "cat", "rm"),
      TANDEM_THIN_TRANSPORT: "curl",
    });
    expect(denied(b)).toContain(file);
  });

  it("tells the server the caller's LC_ALL as it was (set, empty or unset), though bash asks under C", async () => {
    const repo = newRepo();
    await startServer(repo);
    const requests: Buffer[] = [];
    const port = await provingListener(repo, (request, c) => {
      requests.push(request);
      c.end(httpAnswer("503 Busy", ""));
    });
    publishPort(repo, port);
    const seen: (string | null)[] = [];
    for (const LC_ALL of ["C.UTF-8", "", undefined]) {
      const env = cleanEnv({ ...SERVER_ONLY, PATH: pathWith("bash", "cat") });
      if (LC_ALL === undefined) delete env.LC_ALL;
      else env.LC_ALL = LC_ALL;
      await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), { cwd: repo, env });
      const fields = requests.at(-1)!.toString("latin1").split("\0");
      const lcAll = fields.find((f) => /(?:^|\n)LC_ALL=/.test(f));
      seen.push(lcAll === undefined ? null : lcAll.slice(lcAll.indexOf("LC_ALL=") + 7));
      expect(fields.some((f) => f.includes("TANDEM_THIN_LC_ALL"))).toBe(false);
    }
    expect(requests).toHaveLength(3);
    expect(seen).toEqual(["C.UTF-8", "", null]);
  });
});
