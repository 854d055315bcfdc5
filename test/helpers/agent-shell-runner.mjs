// A stand-in agent process that runs commands as its own children, for tests that call it
// synchronously (test/helpers/agent-shell.ts): one request a connection on a unix socket,
// {file, args, cwd, env, input} in, {code, stdout, stderr} out. Its pid is the agent's pid
// (CLAUDE_PID), so a command it runs has the agent among its ancestors, as in a real client.
import { spawn } from "node:child_process";
import { createServer } from "node:net";

function run(req, done) {
  const child = spawn(req.file, req.args, { cwd: req.cwd, env: req.env, stdio: ["pipe", "pipe", "pipe"] });
  const out = [];
  const err = [];
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  child.on("error", (e) => done({ code: -1, stdout: "", stderr: String(e) }));
  child.on("close", (code, signal) =>
    done({
      code: code ?? (signal ? 128 : -1),
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
    }),
  );
  child.stdin.on("error", () => {});
  child.stdin.end(req.input ?? "");
}

const server = createServer({ allowHalfOpen: true }, (conn) => {
  const body = [];
  conn.on("data", (c) => body.push(c));
  conn.on("end", () =>
    run(JSON.parse(Buffer.concat(body).toString("utf8")), (a) => conn.end(JSON.stringify(a))),
  );
});
server.listen(process.argv[2]);
