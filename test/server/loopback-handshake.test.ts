import { existsSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderAnswer } from "../../src/core/server/thin-protocol.js";
import { claudeWrite, denied } from "../helpers/hooks.js";
import {
  closeFakes,
  httpAnswer,
  listener,
  liveProcess,
  loopback,
  newRepo,
  provingListener,
  publishPort,
} from "./loopback-fakes.js";
import { cleanEnv, scratch, startServer, stateDir, thinHook } from "./support.js";

/**
 * The loopback door's handshake (docs/server.md §2, decision 0027): the client leaves a fresh key
 * in serve.hello, sends only its name, and says nothing more unless the port answers the key.
 */
afterAll(closeFakes);

/** A connection that resolves with everything the other side sent once it closes. */
function exchange(port: number, send: (c: Socket, got: () => string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = "";
    const c = connect(port, "127.0.0.1", () => send(c, () => got));
    c.on("data", (d: Buffer) => {
      got += d.toString("latin1");
      send(c, () => got);
    });
    c.on("error", reject);
    c.on("close", () => resolve(got));
  });
}

/** Leaves a key in serve.hello as a client would; returns its name. */
function leaveKey(repo: string, key: string): string {
  const name = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  writeFileSync(join(stateDir(repo), "serve.hello", name), key);
  return name;
}

/** The hello for `name`, then (after the proof line) `request`; resolves with all the port said. */
function helloThen(port: number, name: string, request = ""): Promise<string> {
  let sent = 0;
  return exchange(port, (c, got) => {
    if (sent === 0) c.write(`tandem-hello 1 ${name}\n`);
    else if (sent === 1 && got().includes("\n") && got().startsWith("tandem-proof ")) {
      if (request) c.write(request);
      else c.end();
    }
    sent++;
  });
}

/** The loopback framing: one line-free head with the token and the body's length, then the body. */
const frame = (token: string, body: string) => `tandem-request ${token} ${Buffer.byteLength(body)} ${body}`;

describe("the loopback handshake", () => {
  it("answers only a key left in serve.hello, once, and then takes a request only with the token", async () => {
    const repo = newRepo();
    await startServer(repo);
    const { port, token } = loopback(repo);
    expect(await helloThen(port, "123.nokeyhere")).toBe("tandem-unknown\n");
    expect(await helloThen(port, "../../serve.tcp")).toBe("tandem-unknown\n");
    const key = `${"k".repeat(20)}0123456789`;
    const name = leaveKey(repo, key);
    expect(await helloThen(port, name)).toBe(`tandem-proof ${key}\n`);
    expect(existsSync(join(stateDir(repo), "serve.hello", name))).toBe(false);
    expect(await helloThen(port, name)).toBe("tandem-unknown\n");
    const status = async (request: string) => {
      const said = await helloThen(port, leaveKey(repo, key), request);
      return said.split("\n")[1]!.split(" ")[1];
    };
    const body = "tandem-thin 1\0";
    expect(await status(frame("", body))).toBe("400");
    expect(await status(frame(`${token.slice(0, -1)}${token.endsWith("0") ? "1" : "0"}`, body))).toBe("403");
    // An HTTP request, even with the right token, is not what the port takes.
    expect(
      await status(`POST / HTTP/1.1\r\nx-tandem-token: ${token}\r\ncontent-length: 14\r\n\r\n${body}`),
    ).toBe("400");
    // The right token, a body that is no valid request: refused by the protocol itself.
    expect(await status(frame(token, body))).toBe("400");
  });

  it("gets the whole request in one write, so Nagle never holds part of it behind a delayed ACK", async () => {
    const repo = newRepo();
    await startServer(repo);
    const reads: number[] = [];
    publishPort(
      repo,
      await provingListener(repo, (_request, c, n) => {
        reads.push(n);
        c.end(httpAnswer("200 OK", renderAnswer({ exitCode: 0, stdout: "", stderr: "" })));
      }),
    );
    const r = await thinHook(
      "claude-code",
      "pre-tool-use",
      claudeWrite(repo, "A", "f.txt", "x".repeat(2000)),
      {
        cwd: repo,
        env: cleanEnv({ HOME: scratch("tandem-home-"), CLAUDE_PID: liveProcess() }),
      },
    );
    expect(r.code, r.stderr).toBe(0);
    // Sent in pieces, the first goes out alone and the rest waits for its ACK: a second read.
    expect(reads).toEqual([1]);
  });

  it.each([
    ["closes at once", () => ""],
    ["answers with a proof it saw the real server give", (_: string, replay: string) => replay],
    ["answers with the name it was sent", (name: string) => `tandem-proof ${name}\n`],
    [
      "answers with an HTTP answer straight away",
      () => httpAnswer("200 OK", renderAnswer({ exitCode: 0, stdout: "{}", stderr: "" })),
    ],
  ])(
    "a squatter on the stale port that %s learns a random name and nothing else; Node answers",
    async (_, reply) => {
      const repo = newRepo();
      await startServer(repo);
      const env = cleanEnv({ HOME: scratch("tandem-home-") });
      const a = await thinHook(
        "claude-code",
        "pre-tool-use",
        claudeWrite(repo, "A", "secret-f.txt", "PAYLOAD-MARK"),
        {
          cwd: repo,
          env: { ...env, CLAUDE_PID: liveProcess() },
        },
      );
      expect(denied(a)).toBeNull();
      // A proof the real server gave to a genuine client, as a squatter who once listened could replay.
      const replay = (await helloThen(loopback(repo).port, leaveKey(repo, "r".repeat(24)))).trim();
      const heard: string[] = [];
      const port = await listener((c) => {
        let got = "";
        c.on("data", (d: Buffer) => {
          got += d.toString("latin1");
          if (!got.includes("\n")) return;
          heard.push(got);
          c.end(reply(got.trim().split(" ")[2]!, `${replay}\n`));
        });
        c.on("close", () => heard.push(got));
      });
      const { token } = loopback(repo);
      publishPort(repo, port);
      const b = await thinHook(
        "claude-code",
        "pre-tool-use",
        claudeWrite(repo, "B", "secret-f.txt", "PAYLOAD-MARK"),
        {
          cwd: repo,
          env: { ...env, CLAUDE_PID: liveProcess() },
        },
      );
      // Node answered after the squatter failed: B's write of A's file is refused.
      expect(denied(b)).toContain("secret-f.txt");
      const all = heard.join("");
      expect(heard.at(-1)).toMatch(/^tandem-hello 1 [0-9]+\.[A-Za-z0-9]+\n$/);
      for (const secret of [token, env.HOME!, "PAYLOAD-MARK", "secret-f.txt", "tandem-thin", "PATH="])
        expect(all).not.toContain(secret);
    },
  );
});
