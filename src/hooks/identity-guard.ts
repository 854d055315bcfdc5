/** Before a shell command: refuse one that sets another live session's identity (core/guards/identity-shell.ts). */
import { CLIENTS } from "../clients/index.js";
import type { ToolCall } from "../clients/types.js";
import { mentionsIdentity, type ShellIdentityVerdict, shellIdentity } from "../core/guards/identity-shell.js";
import { sessionViews } from "../sessions/view.js";
import type { HookCtx } from "./context.js";
import { selfSession } from "./context.js";

const VARIABLES = ["TANDEM_SESSION", ...Object.values(CLIENTS).flatMap((c) => c.sessionEnv)];

/** The verdict on a shell command's identity variables, with the named session's id when refused. */
export function identityVerdict(
  ctx: HookCtx,
  tool: ToolCall,
): (ShellIdentityVerdict & { allow: false; holder: string }) | null {
  // The serialized input holds the command however the client shaped it (string or argv).
  const command = JSON.stringify(tool.input ?? null);
  if (!mentionsIdentity(command, VARIABLES)) return null;
  const me = selfSession(ctx);
  const others = sessionViews(ctx.db, ctx.config.freshnessSeconds, ctx.now).filter(
    (s) => s.live && s.id !== me?.id,
  );
  const verdict = shellIdentity({
    command,
    variables: VARIABLES,
    others: others.map((s) => ({ name: s.name, refs: [s.name, s.nativeId, s.id] })),
  });
  if (verdict.allow) return null;
  const holder = others.find((s) => s.name === verdict.claimed)!.id;
  return { ...verdict, holder };
}
