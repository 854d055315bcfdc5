import { resolveRoot, stateDirOf } from "../config/root.js";
import { errorMessage } from "../errors.js";
import { BUILD } from "../version.js";
import { serve } from "./serve.js";
import { registeredServer, stopServer } from "./stop.js";

const USAGE = "usage: tandem serve [--root <dir>] [--status | --stop]\n";
const HELP = `Usage: tandem serve [--root <dir>] [--status | --stop]

Run the resident server that answers this repository's hooks. Hooks start it on demand and it
exits when idle, so running it by hand is rarely needed (docs/server.md).

Options:
  --root <dir>  the coordination root (default: found from the current directory)
  --status      say whether a server runs for this repository, and its pid and socket
  --stop        stop this repository's server

Examples:
  tandem serve --status
  tandem serve --stop
`;

interface Parsed {
  root: string | undefined;
  action: "serve" | "status" | "stop";
}

function parse(argv: string[]): Parsed | null {
  let root: string | undefined;
  let action: Parsed["action"] = "serve";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--status") action = "status";
    else if (a === "--stop") action = "stop";
    else if (a === "--root" && argv[i + 1] !== undefined) root = argv[++i];
    else if (a.startsWith("--root=")) root = a.slice("--root=".length);
    else return null;
  }
  return { root, action };
}

type Write = (text: string) => void;

/** `tandem serve [--status | --stop]` (docs/server.md). */
export async function runServe(argv: string[], out: Write, err: Write): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    out(HELP);
    return 0;
  }
  const args = parse(argv);
  if (!args) {
    err(USAGE);
    return 2;
  }
  let root: string;
  let stateDir: string;
  try {
    const resolved = resolveRoot({ cwd: process.cwd(), flag: args.root, env: process.env });
    root = resolved.root;
    stateDir = stateDirOf(resolved);
  } catch (e) {
    err(`tandem: ${errorMessage(e)}\n`);
    return 1;
  }
  if (args.action === "serve") {
    const log = (line: string) => err(`${new Date().toISOString()} tandem serve: ${line}\n`);
    // A store it cannot register in (read-only, corrupt): said in its own words, not as a crash.
    return serve({ root, stateDir, build: BUILD, env: process.env, log }).catch((e: unknown) => {
      log(`cannot serve: ${errorMessage(e)}`);
      return 1;
    });
  }
  if (args.action === "stop") return stopServer(root, stateDir, out, err);
  const found = registeredServer(root, stateDir, err);
  if (!found) return 1;
  const { live } = found;
  out(
    live
      ? `Serving ${root}: pid ${live.pid}, build ${live.build}, socket ${live.socket}, since ${new Date(live.started).toISOString()}.\n`
      : `No server for ${root}; the next hook starts one (hooks answer through Node meanwhile).\n`,
  );
  return live ? 0 : 1;
}
