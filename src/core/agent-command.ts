import { shellQuote } from "./shell-quote.js";

/**
 * How an agent starts Tandem from its own shell tool (issue 14), decided once from plain facts.
 * Hooks are wired by the client, but the ritual, refusal remedies and the status footer are
 * commands the agent runs itself, and Codex's shell starts from a login-shell snapshot (Debian's
 * /etc/profile resets PATH): a bare `tandem` that a hook reaches may not resolve there. These
 * messages are never committed, so a path of this machine is fine in them.
 */
export interface AgentCommandFacts {
  /** The launcher `.tandem/config.jsonc` records (`init.command`), or null when none is. */
  launcher: string | null;
  /** Absolute coordination root: a project-relative launcher starts from here. */
  root: string;
  /** `<node> <bundle>` of the running Tandem, which starts it from any shell of this machine. */
  pinned: string | null;
  /** Whether `natural` ran in a login shell when last probed (init, doctor); null when never. */
  loginWorks: boolean | null;
}

/** `node_modules/.bin/tandem`-like: relative to the project root. */
function projectRelative(word: string): boolean {
  return word.includes("/") && !word.startsWith("/") && !/^[~$"']/.test(word);
}

/** The launcher as an agent's shell can run it from any directory: a project path made absolute. */
export function naturalCommand(launcher: string | null, root: string): string {
  const l = launcher?.trim() || "tandem";
  const [first, ...rest] = l.split(" ");
  if (!projectRelative(first!)) return l;
  return [shellQuote(`${root.replace(/\/$/, "")}/${first}`), ...rest].join(" ");
}

/** The natural form, unless a probe found that it fails in a login shell: then this machine's Tandem. */
export function agentCommand(f: AgentCommandFacts): string {
  const natural = naturalCommand(f.launcher, f.root);
  return f.loginWorks === false && f.pinned ? f.pinned : natural;
}
