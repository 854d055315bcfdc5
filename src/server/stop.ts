import { existsSync } from "node:fs";
import { type Printer, spanned } from "../core/printed.js";
import { shellQuote } from "../core/shell/quote.js";
import { errorMessage } from "../errors.js";
import { addrFile, helloDir, tcpFile } from "../resident/paths.js";
import { processAlive } from "../sessions/proc.js";
import { envNamesSession } from "../sessions/resolve.js";
import { dbFile, openDb } from "../store/db.js";
import { type ServerRow, serverRow } from "../store/server/row.js";
import { writeBlocker } from "../store/write-access.js";
import { printerOf } from "../wiring/agent-shell.js";

type Write = (text: string) => void;

/** How long `--stop` waits for the server to finish its requests and exit. */
const STOP_WAIT_MS = 5_000;

/** The registered server, or null when there is no store yet; throws what the store's open throws. */
export function readServerRow(stateDir: string): ServerRow | null {
  if (!existsSync(dbFile(stateDir))) return null;
  const db = openDb(stateDir, { readonly: true });
  try {
    return serverRow(db);
  } finally {
    db.close();
  }
}

/** The registered server and whether it is alive; null (said on `err`) when the store cannot tell. */
export function registeredServer(
  root: string,
  stateDir: string,
  err: Write,
): { row: ServerRow | null; live: ServerRow | null } | null {
  let row: ServerRow | null;
  try {
    row = readServerRow(stateDir);
  } catch (e) {
    err(`tandem: cannot tell whether a server runs for ${root}: ${errorMessage(e)}\n`);
    return null;
  }
  return { row, live: row && processAlive(row.pid, row.pid_start) ? row : null };
}

/** The files a server removes on its way out: any still there after it exited were left behind. */
export function leftBehind(stateDir: string, socket: string | null): string[] {
  const files = [addrFile(stateDir), tcpFile(stateDir), helloDir(stateDir), ...(socket ? [socket] : [])];
  return files.filter((f) => existsSync(f));
}

/** What is left, and the commands that remove it (the directory made writable first if it is not). */
function leftMessage(stateDir: string, left: string[]): string {
  // serve.hello is unlistable (0300, decision 0064): rm can empty it only once it may list it.
  const hello = left.includes(helloDir(stateDir))
    ? `chmod u+rwx -- ${shellQuote(helloDir(stateDir))} && `
    : "";
  const rm = `\`${hello}rm -rf -- ${left.map(shellQuote).join(" ")}\``;
  const blocked = writeBlocker(dbFile(stateDir));
  if (!blocked) return `${left.map((f) => `  ${f}\n`).join("")}To remove them: ${rm}.\n`;
  const q = shellQuote(blocked.path);
  return `${left.map((f) => `  ${f}\n`).join("")}To remove them, make ${blocked.path} writable first (${blocked.code}; \`chmod u+w ${q}\`, or \`chattr -i ${q}\` as root if it is immutable), then run ${rm}.\n`;
}

/** Who asked to stop: an agent's shell (its client's variables say so) or a person's terminal. */
function stopPrinter(root: string, stateDir: string): Printer {
  return printerOf(root, stateDir, envNamesSession(process.env) ? "agent" : "person");
}

/**
 * `tandem serve --stop`: says what happened, and exits non-zero unless the server is gone and
 * nothing of it is left (stopped; was not running; stopped but its clean-up failed).
 */
export async function stopServer(root: string, stateDir: string, out: Write, err: Write): Promise<number> {
  const found = registeredServer(root, stateDir, err);
  if (!found) return 1;
  const { row, live } = found;
  if (!live) {
    const left = leftBehind(stateDir, row?.socket ?? null);
    out(`No server was running for ${root}; nothing to stop.\n`);
    if (left.length > 0)
      out(`A server that exited without cleaning up left:\n${leftMessage(stateDir, left)}`);
    return 0;
  }
  try {
    process.kill(live.pid, "SIGTERM");
  } catch (e) {
    err(`tandem: could not signal the server (pid ${live.pid}): ${errorMessage(e)}\n`);
    return 1;
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  while (processAlive(live.pid, live.pid_start) && Date.now() < deadline) await sleep(50);
  if (processAlive(live.pid, live.pid_start)) {
    err(
      `tandem: the server (pid ${live.pid}) did not stop within ${STOP_WAIT_MS / 1000} s; it may be finishing a request. Run ${spanned(stopPrinter(root, stateDir), "serve", "--stop")} again, or \`kill ${live.pid}\`.\n`,
    );
    return 1;
  }
  const left = leftBehind(stateDir, live.socket);
  if (left.length === 0) {
    out(`Stopped the server of ${root} (pid ${live.pid}).\n`);
    return 0;
  }
  err(
    `tandem: stopped the server of ${root} (pid ${live.pid}), but its clean-up failed and left:\n${leftMessage(stateDir, left)}Until then hooks answer through Node, a little slower; serve.log in ${stateDir} says what failed.\n`,
  );
  return 1;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
