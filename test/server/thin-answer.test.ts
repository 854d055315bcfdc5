import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderAnswer } from "../../src/core/server/thin-protocol.js";
import { claudeWrite } from "../helpers/hooks.js";
import {
  closeFakes,
  httpAnswer,
  liveProcess,
  newRepo,
  pathWith,
  provingListener,
  publishPort,
} from "./loopback-fakes.js";
import { cleanEnv, scratch, startServer, stateDir, thinHook } from "./support.js";

/**
 * The thin client prints what the server answers and never runs it (decision 0027), on both ways:
 * bash over the loopback port, and sh with curl over the unix socket. The stand-in servers pass
 * every check a real one passes (handshake, socket), so only the answer's bytes are on trial.
 * Node does not exist here: an answer the client refuses as lost fails the call with 127.
 */
const SERVER_ONLY = { TANDEM_NODE: "/nonexistent/node" };
const sockets: ReturnType<typeof createServer>[] = [];
afterAll(() => {
  closeFakes();
  for (const s of sockets.splice(0)) s.close();
});

const hostile = "$(touch pwned1) `touch pwned2`; touch pwned3 && echo '$HOME' \"$(id)\"\n";
const ANSWERS: [string, string, { code: number; stdout: string; stderr: string }][] = [
  [
    "a whole answer whose outputs are shell code",
    renderAnswer({ exitCode: 3, stdout: hostile, stderr: "'; touch pwned4 #\n" }),
    { code: 3, stdout: hostile, stderr: "'; touch pwned4 #\n" },
  ],
  [
    "the old answer, a script",
    "printf '%s' owned\ntouch pwned5\n$(touch pwned6)\nexit 0\n: tandem-end",
    { code: 127, stdout: "", stderr: "" },
  ],
  [
    "a first line that smuggles a command",
    "tandem-answer 0;touch\tpwned7 TANDEM-0-\nowned TANDEM-0-TANDEM-0-\ntandem-end",
    { code: 127, stdout: "", stderr: "" },
  ],
  [
    "an exit code that is a command",
    "tandem-answer $(touch\tpwned8) TANDEM-0-\nownedTANDEM-0-TANDEM-0-\ntandem-end",
    { code: 127, stdout: "", stderr: "" },
  ],
  [
    "a separator that occurs thrice",
    "tandem-answer 0 TANDEM-0-\nownedTANDEM-0-TANDEM-0-TANDEM-0-\ntandem-end",
    { code: 127, stdout: "", stderr: "" },
  ],
];

/** A unix-socket server that answers every request with `body`, published as serve.addr. */
async function fakeSocket(repo: string, body: string): Promise<void> {
  const path = join(scratch("tandem-sock-"), "s.sock");
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-length": Buffer.byteLength(body) }).end(body));
  });
  sockets.push(server);
  await new Promise<void>((r) => server.listen(path, () => r()));
  writeFileSync(join(stateDir(repo), "serve.addr"), `${path}\n`);
  rmSync(join(stateDir(repo), "serve.tcp"), { force: true });
}

describe("the thin client's reading of an answer", () => {
  it.each(ANSWERS)(
    "runs none of %s (a whole one is printed byte for byte), over the port and over the socket",
    async (_, body, want) => {
      for (const way of ["bash over the port", "curl over the socket"]) {
        const repo = newRepo();
        await startServer(repo);
        let PATH: string;
        if (way === "bash over the port") {
          publishPort(repo, await provingListener(repo, (_req, c) => c.end(httpAnswer("200 OK", body))));
          PATH = pathWith("bash", "cat", "touch", "id");
        } else {
          await fakeSocket(repo, body);
          PATH = pathWith("curl", "cat", "rm", "touch", "id");
        }
        const r = await thinHook("claude-code", "pre-tool-use", claudeWrite(repo, "A", "f.txt"), {
          cwd: repo,
          env: cleanEnv({ ...SERVER_ONLY, PATH, CLAUDE_PID: liveProcess() }),
        });
        expect({ way, code: r.code, stdout: r.stdout }).toEqual({
          way,
          code: want.code,
          stdout: want.stdout,
        });
        if (want.code !== 127) expect(r.stderr).toBe(want.stderr);
        expect(r.stdout + r.stderr).not.toContain("owned");
        expect(readdirSync(repo).filter((f) => f.startsWith("pwned"))).toEqual([]);
        expect(existsSync(join(stateDir(repo), "pwned1"))).toBe(false);
      }
    },
  );
});
