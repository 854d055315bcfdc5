// Sends one request (stdin, JSON) to an agent-shell runner's socket (argv[2]) and prints its answer,
// retrying while the runner is still starting.
import { connect } from "node:net";

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const request = Buffer.concat(chunks);

function attempt(left) {
  const sock = connect(process.argv[2]);
  const answer = [];
  sock.on("connect", () => sock.end(request));
  sock.on("data", (c) => answer.push(c));
  sock.on("end", () => process.stdout.write(Buffer.concat(answer)));
  sock.on("error", (e) => {
    if (left > 0 && (e.code === "ENOENT" || e.code === "ECONNREFUSED"))
      setTimeout(() => attempt(left - 1), 50);
    else {
      process.stderr.write(`agent shell: ${e.message}\n`);
      process.exit(2);
    }
  });
}
attempt(400);
