/**
 * The guard in force for each session, as status, watch and the board show it (issue 36 §4;
 * src/core/jail/guard.ts decides): the config, the client's spec and whether its agent is jailed.
 */
import { clientByName } from "../clients/index.js";
import { sessionGuard } from "../core/jail/guard.js";
import type { GuardMode } from "../core/jail/rewrite.js";
import { inOtherUserNamespace } from "./proc.js";

export function guardOf(s: { client: string; agentPid?: number | null }, configured: GuardMode): GuardMode {
  return sessionGuard({
    configured,
    rewrites: clientByName(s.client)?.commandRewrite.used === true,
    jailed: typeof s.agentPid === "number" && inOtherUserNamespace(s.agentPid),
  });
}
