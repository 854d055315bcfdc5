import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { denied } from "../helpers/hooks.js";
import { closeFakes, liveProcess, newRepo, pathWith } from "./loopback-fakes.js";
import { cleanEnv, type Env, run, startServer, THIN } from "./support.js";

/**
 * Issue 37.7: a payload of any size reaches the server whole. Bash reads a first block with its own
 * `read` and copies the rest with one `cat`; sh copies all of it with one `cat` and sends it with
 * curl. The Node fallback does not exist here (TANDEM_NODE), so a payload the server did not get
 * whole fails instead of passing. The path a denial echoes is placed after the big content, or
 * across the first block's end, so a byte lost or split on the way shows in the answer.
 */
const SERVER_ONLY = { TANDEM_NODE: "/nonexistent/node" };
const BLOCK = 65536;
afterAll(closeFakes);

const TRANSPORTS: [string, () => Env][] = [
  ["bash over the loopback port", () => ({ PATH: pathWith("bash", "cat", "wc", "rm") })],
  ["sh with curl over the socket", () => ({ PATH: pathWith("curl", "cat", "rm") })],
];

/** A Claude Write whose content comes before its path, so the path is the payload's last field. */
function write(repo: string, session: string, file: string, content: string): string {
  return JSON.stringify({
    session_id: session,
    cwd: repo,
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { content, file_path: join(repo, file) },
    tool_use_id: `toolu_${session}_${content.length}`,
  });
}

/** Content that puts the first byte of `file`'s "名" (3 bytes in UTF-8) at the block's last byte. */
function straddling(repo: string, session: string, file: string): string {
  const at = (content: string) => Buffer.from(write(repo, session, file, content)).indexOf("名");
  const pad = BLOCK - 1 - at("");
  const payload = write(repo, session, file, "x".repeat(pad));
  expect(Buffer.from(payload).indexOf("名")).toBe(BLOCK - 1);
  return payload;
}

function hook(repo: string, input: string, env: Env) {
  return run(THIN, ["hook", "claude-code", "pre-tool-use"], {
    cwd: repo,
    env: cleanEnv({ ...SERVER_ONLY, CLAUDE_PID: liveProcess(), ...env }),
    input,
  });
}

describe("a big payload through the thin client", () => {
  for (const [name, env] of TRANSPORTS) {
    it(`${name}: a 20 MB Write is claimed, and a peer's is refused naming its path`, async () => {
      const repo = newRepo();
      await startServer(repo);
      const tmp = join(repo, "..", "tmp");
      mkdirSync(tmp);
      const pathEnv = { ...env(), TMPDIR: tmp };
      const big = "line — ünïcödé\n".repeat(1_200_000);
      expect(Buffer.byteLength(big)).toBeGreaterThan(20_000_000);
      const file = "dïr é/大きい ü.txt";
      const a = await hook(repo, write(repo, "A", file, big), pathEnv);
      expect([a.code, a.stderr, denied(a)]).toEqual([0, "", null]);
      const b = await hook(repo, write(repo, "B", file, big), pathEnv);
      expect(b.code).toBe(0);
      expect(denied(b)).toContain(file);
      // Each copy is removed once the hook has its answer.
      expect(readdirSync(tmp)).toEqual([]);
    });

    it(`${name}: a multibyte character across the first block's end survives`, async () => {
      const repo = newRepo();
      await startServer(repo);
      const file = "名前.txt";
      const a = await hook(repo, straddling(repo, "A", file), env());
      expect([a.code, denied(a)]).toEqual([0, null]);
      const b = await hook(repo, straddling(repo, "B", file), env());
      expect(denied(b)).toContain(file);
    });
  }
});
