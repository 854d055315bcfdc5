import { type ClientName, clientByName } from "../clients/index.js";
import { ALLOW, type ClientSpec, type HookInput, type Rendered, type Verdict } from "../clients/types.js";
import { stateDirOf } from "../config/root.js";
import { DIRECT_ACCESS } from "../store/access.js";
import { recordAnswer, requestState } from "../store/requests.js";
import { type HookRequest, hookRoot } from "./context.js";

type Req = HookRequest & { stdin: string };

interface Located {
  client: ClientSpec<ClientName>;
  input: HookInput | null;
  stateDir: string;
}

/** Where the request's store is, read from its payload the way the handler does; null when unknown. */
export function locateHook(req: Req): Located | null {
  const [clientName, cliEvent] = req.args;
  const client = clientByName(clientName ?? "");
  if (!client || !cliEvent) return null;
  let input: HookInput | null = null;
  try {
    const parsed = client.parse(cliEvent, JSON.parse(req.stdin));
    if (parsed.ok) input = parsed.input;
  } catch {
    // Not JSON: the handler reports it; the store is still found from the directory.
  }
  try {
    return { client, input, stateDir: stateDirOf(hookRoot(client, input, req)) };
  } catch {
    return null;
  }
}

/** What the Node path answers for a request the server took and never answered. */
function unansweredVerdict(input: HookInput | null): Verdict {
  if (input?.kind !== "pre-tool") return ALLOW;
  return {
    allow: false,
    rule: "server-interrupted",
    reason:
      "Tandem's server stopped while checking this tool call, after recording part of it, so Tandem did not check it twice. Nothing was lost: retry the same tool call.",
  };
}

/**
 * Runs a thin-client request at most once (docs/server.md §4). The Node path first asks the store
 * whether the server took the request: it replays a recorded answer, and refuses a gated call the
 * server took but never answered rather than apply it twice. Whoever handled it records the answer.
 */
export async function handleOnce(req: Req, handle: (req: Req) => Promise<Rendered>): Promise<Rendered> {
  const request = req.request;
  if (!request) return handle(req);
  const where = locateHook(req);
  if (!where) return handle(req);
  const access = req.store ?? DIRECT_ACCESS;
  if (request.owner === "node") {
    const earlier = readState(access, where.stateDir, request.id);
    if (earlier?.state === "answered") return earlier.answer;
    if (earlier?.state === "taken") {
      const kind = where.input?.kind ?? "other";
      const wired = where.client.events.find((e) => e.cli === req.args[1]) ?? null;
      return where.client.render(kind, wired, unansweredVerdict(where.input));
    }
  }
  const result = await handle(req);
  try {
    const db = access.open(where.stateDir, {});
    try {
      recordAnswer(db, request.id, request.owner, result);
    } finally {
      access.release(db);
    }
  } catch {
    // Unrecorded, a lost reply is refused on retry instead of replayed: still never applied twice.
  }
  return result;
}

function readState(access: typeof DIRECT_ACCESS, stateDir: string, id: string) {
  try {
    const db = access.open(stateDir, {});
    try {
      return requestState(db, id);
    } finally {
      access.release(db);
    }
  } catch {
    return null; // The handler meets the same store failure and answers for it.
  }
}
