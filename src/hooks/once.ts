import { ALLOW, type HookInput, type Rendered, type Verdict } from "../clients/types.js";
import { refusal } from "../core/rules/catalog.js";
import { DIRECT_ACCESS } from "../store/access.js";
import { recordAnswer, requestState } from "../store/ledger/requests.js";
import type { HookRequest } from "./context.js";
import { type ReadHook, stateDirOfRead } from "./read.js";

type Req = HookRequest & { stdin: string };

/** What the Node path answers for a request the server took and never answered. */
function unansweredVerdict(input: HookInput | null): Verdict {
  if (input?.kind !== "pre-tool") return ALLOW;
  return refusal("server-interrupted", {});
}

/**
 * Runs a thin-client request at most once (docs/server.md §4). The Node path first asks the store
 * whether the server took the request: it replays a recorded answer, and refuses a gated call the
 * server took but never answered rather than apply it twice. Whoever handled it records the answer.
 */
export async function handleOnce(
  req: Req,
  read: ReadHook | null,
  handle: () => Promise<Rendered>,
): Promise<Rendered> {
  const request = req.request;
  const stateDir = read ? stateDirOfRead(read) : null;
  if (!request || !read || !stateDir) return handle();
  const access = req.store ?? DIRECT_ACCESS;
  if (request.owner === "node") {
    const earlier = readState(access, stateDir, request.id);
    if (earlier?.state === "answered") return earlier.answer;
    if (earlier?.state === "taken") {
      const kind = read.input?.kind ?? "other";
      return read.client.render(kind, read.wired, unansweredVerdict(read.input));
    }
  }
  const result = await handle();
  try {
    const db = access.open(stateDir, {});
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
