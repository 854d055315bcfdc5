import type { ClientName } from "../clients/index.js";
import type { ClientSpec, HookInput } from "../clients/types.js";
import { forger } from "../core/guards/forgery.js";
import { discoverAgent } from "../sessions/discover.js";
import type { Db } from "../store/db.js";
import { liveSessionsOfAgent, sessionByNative } from "../store/sessions/rows.js";
import type { HookRequest } from "./context.js";

/**
 * The session whose tool call forged this hook call, or null. Costs a few /proc
 * reads; only a session already recorded with an agent process is checked.
 */
export function forgedBy(
  db: Db,
  client: ClientSpec<ClientName>,
  input: HookInput,
  req: HookRequest,
): { id: string; name: string; named: string } | null {
  const named = sessionByNative(db, client.name, input.sessionId);
  if (!named?.agent_pid || named.ended_seq !== null) return null;
  const agent = discoverAgent(client, req.env, req.pid);
  if (!agent || agent.pid === named.agent_pid) return null;
  const sessionsOfAgent = liveSessionsOfAgent(db, agent.pid, agent.start);
  const by = forger({
    named: { id: named.id, name: named.name, agentPid: named.agent_pid },
    agentPid: agent.pid,
    sessionsOfAgent,
  });
  return by ? { ...by, named: named.name } : null;
}
