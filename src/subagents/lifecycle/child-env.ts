import { CLIENTS } from "../../clients/index.js";
import { GIT_LOCATION_VARS } from "../../git/run.js";

export interface ChildEnvOptions {
  subId: string;
  /** The caller's internal session id: hooks of a client child register under it (kind subagent). */
  parentSession: string | null;
  /** The session Tandem recorded for an exec child; null for clients, whose hooks register them. */
  childSession: string | null;
  /** Variables the client needs in its worktree (Gemini: the project's folder trust). */
  extra?: Readonly<Record<string, string>>;
  /** The client's own launch variables (ClientSpec.subagent.env), set over the caller's. */
  launchEnv?: Readonly<Record<string, string>>;
}

/**
 * The child's environment: the caller's, minus everything that names the
 * caller (its session variables, a pinned root, a test crash point meant for
 * `sub run` itself), plus who the child is.
 */
export function childEnv(
  parent: Readonly<Record<string, string | undefined>>,
  opts: ChildEnvOptions,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined) env[k] = v;
  const drop = [
    // Anything that would point the child's git at the parent's repository instead of its worktree.
    ...GIT_LOCATION_VARS,
    ...Object.values(CLIENTS).flatMap((c) => c.sessionEnv),
    "TANDEM_SESSION",
    "TANDEM_ROOT",
    "TANDEM_PARENT_SESSION",
    "TANDEM_SUBAGENT",
    "TANDEM_TEST_CRASH_AT",
    "CLAUDE_PROJECT_DIR",
  ];
  for (const k of drop) delete env[k];
  Object.assign(env, opts.extra, opts.launchEnv);
  env.TANDEM_SUBAGENT = opts.subId;
  if (opts.parentSession) env.TANDEM_PARENT_SESSION = opts.parentSession;
  if (opts.childSession) env.TANDEM_SESSION = opts.childSession;
  return env;
}
