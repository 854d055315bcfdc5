import { shellQuote } from "./quote.js";

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
  /**
   * The repository launcher (`<git common dir>/tandem/bin/tandem`, decision 0030) when init wrote
   * it: a short path that starts this machine's Tandem from any shell, and that the allow rules name.
   */
  repoLauncher: string | null;
  /** `<node> <bundle>` of the running Tandem: the last resort, from a repository init never wrote. */
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

/**
 * The natural form, unless a probe found that it fails in a login shell: then the repository
 * launcher, which the allow rules cover, or (before init wrote one) this machine's Tandem.
 */
export function agentCommand(f: AgentCommandFacts): string {
  const natural = naturalCommand(f.launcher, f.root);
  if (f.loginWorks !== false) return natural;
  if (f.repoLauncher) return shellQuote(f.repoLauncher);
  return f.pinned ?? natural;
}
