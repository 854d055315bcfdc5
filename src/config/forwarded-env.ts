import { CLIENTS } from "../clients/index.js";
import { CONFIG_KEYS } from "./keys.js";

/**
 * What the resident server needs of a caller's environment (docs/server.md): the thin client sends
 * these variables and no others. Derived, not copied (issue 39): scripts/build.mjs writes this list
 * into dist/tandem, so a new config key or client reaches the server without a second edit.
 */

/** Tandem's own variables that are not settings: identity, sub-agents, test seams, the person's switches. */
const TANDEM_OWN = [
  "TANDEM_SESSION",
  "TANDEM_ROOT",
  "TANDEM_PARENT_SESSION",
  "TANDEM_BYPASS",
  "TANDEM_SUBAGENT",
  "TANDEM_INLINE_AUDIT_BYTES",
  "TANDEM_TEST_CRASH_AT",
  "TANDEM_TEST_NOW",
  "TANDEM_ALLOW_WIRING_EDITS",
];

/** What the process itself reads: homes, PATH, the terminal, WSL, how git and the shell find things. */
const PROCESS = [
  "CODEX_HOME",
  "HOME",
  "PATH",
  "XDG_CONFIG_HOME",
  "XDG_STATE_HOME",
  "WSL_DISTRO_NAME",
  "TERM",
  "NO_COLOR",
  "LC_ALL",
  "COLUMNS",
  "GIT_CEILING_DIRECTORIES",
  "CDPATH",
  "BASHOPTS",
];

/** Each client's session variables, its UI-process variable and its project-dir variable. */
function clientVariables(): string[] {
  return Object.values(CLIENTS).flatMap((c) => [
    ...c.sessionEnv,
    ...(c.ui?.kind === "env-pid" ? [c.ui.variable] : []),
    ...(c.givesProjectDir ? ["CLAUDE_PROJECT_DIR"] : []),
  ]);
}

/** Every forwarded variable, once each, in a stable order. */
export function forwardedEnv(): string[] {
  const settings = CONFIG_KEYS.flatMap((k) => (k.env ? [k.env] : []));
  return [...new Set([...TANDEM_OWN, ...settings, ...clientVariables(), ...PROCESS])];
}
