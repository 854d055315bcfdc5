import { tmpdir } from "node:os";
import { join } from "node:path";

/** node:crypto on first use: loading it costs every hook and command a few ms. */
const crypto = () => process.getBuiltinModule("node:crypto");

/** The one line the thin client reads to find the socket (docs/server.md §2). */
export const addrFile = (stateDir: string): string => join(stateDir, "serve.addr");
/** The loopback port and its secrets, for clients that speak TCP but not unix sockets (bash). */
export const tcpFile = (stateDir: string): string => join(stateDir, "serve.tcp");
/** Where a bash client leaves the key the server must answer before it is told anything (0700). */
export const helloDir = (stateDir: string): string => join(stateDir, "serve.hello");
export const logFile = (stateDir: string): string => join(stateDir, "serve.log");
/** When a Node hook last started a server, so hooks do not start one each while it comes up. */
export const startedMark = (stateDir: string): string => join(stateDir, "serve.started");

/** sun_path holds 108 bytes on Linux and 104 on macOS, with its terminating NUL. */
const SOCKET_PATH_MAX = 100;

/**
 * The socket: in the state directory when its path fits a socket address, else in a private
 * directory under the system's temporary directory, named by a hash of the state directory.
 */
export function socketFor(stateDir: string): { dir: string | null; path: string } {
  const inState = join(stateDir, "serve.sock");
  if (Buffer.byteLength(inState) <= SOCKET_PATH_MAX) return { dir: null, path: inState };
  const uid = process.getuid?.() ?? "user";
  const dir = join(tmpdir(), `tandem-${uid}`);
  const hash = crypto().createHash("sha256").update(stateDir).digest("hex").slice(0, 24);
  return { dir, path: join(dir, `${hash}.sock`) };
}
