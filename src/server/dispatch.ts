import type { Io } from "../cli/context.js";
import { runCli } from "../cli/light.js";
import { resolveRoot, stateDirOf } from "../config/root.js";
import type { JailKeyOf } from "../core/jail/identity.js";
import { parseThinRequest, renderAnswer, type ThinRequest } from "../core/server/thin-protocol.js";
import { errorMessage } from "../errors.js";
import { handleHook } from "../hooks/handler.js";
import { readHook, stateDirOfRead } from "../hooks/read.js";
import { judgeJailed } from "../jail/identity.js";
import { judgeRun } from "../jail/run-identity.js";
import { requestIdOf } from "../resident/request-id.js";
import type { StoreAccess } from "../store/access.js";
import { crashPoint } from "../testing/crash.js";

export interface Served {
  status: number;
  body: string;
  /** Work to do once the answer is sent (starting a background sync). */
  after?: (() => void)[];
}

export interface ServerScope {
  build: string;
  stateDir: string;
  store: StoreAccess;
}

/** The commands agents run every turn; anything else goes to the Node program. */
const CLI = new Set(["status", "task", "release"]);

const decline = (status: number, why: string): Served => ({ status, body: `${why}\n` });

/**
 * One thin-client request, answered exactly as the Node program would answer it. Declines
 * (before doing anything) what another process must answer: another build (409), another
 * repository or a caller it cannot see (421).
 */
export async function dispatch(body: Buffer, scope: ServerScope, jail?: JailKeyOf): Promise<Served> {
  const req = parseThinRequest(body);
  if ("error" in req) return decline(400, req.error);
  if (req.build !== scope.build) return decline(409, `this server is build ${scope.build}`);
  if (jail?.kind === "session") return jailed(req, scope, jail.session);
  if (jail?.kind === "run") return runJailed(req, scope, jail);
  const [command, ...rest] = req.args;
  if (command === "hook") return hook(req, rest, scope);
  if (command && CLI.has(command)) return cli(req, scope);
  return decline(421, "not a request the server answers");
}

async function hook(req: ThinRequest, args: string[], scope: ServerScope): Promise<Served> {
  const id = requestIdOf(req.pid);
  if (!id) return decline(421, "the caller's process cannot be seen");
  const call = { args, env: req.env, cwd: req.cwd, pid: req.pid, stdin: req.stdin };
  // Read once: the payload parsed and the root resolved here are what the handler uses.
  const read = readHook(call);
  if (!read || stateDirOfRead(read) !== scope.stateDir) return decline(421, "another repository");
  const after: (() => void)[] = [];
  const later = (task: () => void) => void after.push(task);
  const result = await handleHook(
    { ...call, store: scope.store, request: { id, owner: "server" }, later, warm: true },
    read,
  );
  crashPoint("serve:before-reply", req.env);
  return { status: 200, body: renderAnswer(result), after };
}

/**
 * A request through a jail's door (decision 0064): it acts for the jail's session whatever its
 * pid, variables or --session say, and a hook or another session's name is refused and recorded.
 */
async function jailed(req: ThinRequest, scope: ServerScope, session: string): Promise<Served> {
  let root: string;
  try {
    const resolved = resolveRoot({ cwd: req.cwd, env: req.env });
    if (stateDirOf(resolved) !== scope.stateDir) return decline(421, "another repository");
    root = resolved.root;
  } catch (err) {
    return decline(421, errorMessage(err));
  }
  const outcome = judgeJailed({ args: req.args, env: req.env, session, root, ...scope });
  if (outcome.kind === "refuse")
    return { status: 200, body: renderAnswer({ exitCode: 1, stdout: "", stderr: `${outcome.reason}\n` }) };
  if (!req.args[0] || !CLI.has(req.args[0])) return decline(421, "not a request the server answers");
  return cli(req, scope, outcome.session);
}

/** The root of a jailed request, or the decline when it is another repository's. */
function rootIn(req: ThinRequest, scope: ServerScope): string | Served {
  try {
    const resolved = resolveRoot({ cwd: req.cwd, env: req.env });
    return stateDirOf(resolved) === scope.stateDir ? resolved.root : decline(421, "another repository");
  } catch (err) {
    return decline(421, errorMessage(err));
  }
}

/**
 * A request through a `tandem run`'s door (decision 0071): the client's own hooks, and its agent's
 * commands as that agent, when every process they name descends from the run; else refused and
 * recorded.
 */
async function runJailed(
  req: ThinRequest,
  scope: ServerScope,
  run: { pid: number; start: string },
): Promise<Served> {
  const root = rootIn(req, scope);
  if (typeof root !== "string") return root;
  const v = judgeRun({ args: req.args, env: req.env, pid: req.pid, stdin: req.stdin, run, root, ...scope });
  if (v.kind === "refuse")
    return { status: 200, body: renderAnswer({ exitCode: 1, stdout: "", stderr: `${v.reason}\n` }) };
  if (v.kind === "hook") return hook(req, req.args.slice(1), scope);
  if (!req.args[0] || !CLI.has(req.args[0])) return decline(421, "not a request the server answers");
  return cli(req, scope, v.session);
}

async function cli(req: ThinRequest, scope: ServerScope, jail?: string): Promise<Served> {
  if (req.args.some((a) => a === "--root" || a.startsWith("--root="))) return decline(421, "--root");
  // Who calls is read from the caller's ancestry (sessions/resolve.ts): a caller it cannot see
  // would read as a person's shell, so Node answers from inside the real process instead.
  if (!requestIdOf(req.pid)) return decline(421, "the caller's process cannot be seen");
  try {
    if (stateDirOf(resolveRoot({ cwd: req.cwd, env: req.env })) !== scope.stateDir)
      return decline(421, "another repository");
  } catch (err) {
    return decline(421, errorMessage(err));
  }
  let stdout = "";
  let stderr = "";
  const { TANDEM_THIN_TTY: tty, ...env } = req.env;
  const io: Io = {
    cwd: req.cwd,
    env,
    pid: req.pid,
    ...(jail === undefined ? {} : { jail }),
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
    isTty: tty === "1",
    exitCode: 0,
    store: scope.store,
  };
  const exitCode = await runCli(req.args, io);
  return { status: 200, body: renderAnswer({ exitCode, stdout, stderr }) };
}
