// A stand-in agent process for the server tests. Started through a symlink to node named like the
// client (`codex`, `cursor`, `claude`), so Tandem's agent discovery finds it as the hooks' agent,
// as it finds the real client. It runs what the test asks, as its children: one JSON request a
// line on stdin ({id, file, args, cwd, env, input}), one JSON answer a line on stdout.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

function run(req) {
  const child = spawn(req.file, req.args, { cwd: req.cwd, env: req.env, stdio: ["pipe", "pipe", "pipe"] });
  const out = [];
  const err = [];
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  child.on("error", (e) => answer({ id: req.id, code: -1, stdout: "", stderr: String(e) }));
  child.on("close", (code, signal) =>
    answer({
      id: req.id,
      code: code ?? (signal ? 128 : -1),
      stdout: Buffer.concat(out).toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
    }),
  );
  child.stdin.on("error", () => {});
  child.stdin.end(req.input ?? "");
}

function answer(a) {
  process.stdout.write(`${JSON.stringify(a)}\n`);
}

createInterface({ input: process.stdin }).on("line", (line) => run(JSON.parse(line)));
process.stdin.on("end", () => process.exit(0));
