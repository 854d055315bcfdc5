/**
 * Whether and how the pre-tool hook sends a shell command through the jail (docs/decisions/0056).
 * Pure: the hook (src/hooks/jail-rewrite.ts) gathers the facts and writes the plan.
 */
import type { GuardMode } from "../guard-mode.js";
import { type Printer, spanned } from "../printed.js";
import { shellQuote } from "../quote.js";
import { JAIL_SETUP_FAILED } from "./argv.js";

export type { GuardMode };

export interface RewriteFacts {
  guard: GuardMode;
  /** The client's field that holds the command, when its pre-tool answer can replace it; else null. */
  field: string | null;
  /** The tool's input as the client sent it. */
  input: unknown;
  /** Whether the kernel will jail here (src/jail/probe.ts), or why not and what to do. */
  kernel: { ok: true } | { ok: false; why: string; fix: string };
}

export type RewriteStep =
  | { kind: "none" }
  | { kind: "rewrite"; command: string }
  | { kind: "refuse"; reason: string };

/** The command string of a shell call's input, or null when the input holds none. */
export function commandOf(input: unknown, field: string): string | null {
  if (typeof input !== "object" || input === null) return null;
  const value = (input as Record<string, unknown>)[field];
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

export function rewriteStep(f: RewriteFacts): RewriteStep {
  if (f.guard !== "kernel" || f.field === null) return { kind: "none" };
  const command = commandOf(f.input, f.field);
  if (command === null) return { kind: "none" };
  if (!f.kernel.ok)
    return {
      kind: "refuse",
      reason: kernelGuardMessage({
        detail: `the kernel jail cannot be set up here (${f.kernel.why})`,
        fix: f.kernel.fix,
      }),
    };
  return { kind: "rewrite", command };
}

/** The command the client runs instead: the launcher, the plan, the original command, all quoted. */
export function jailedCommand(launcher: string, plan: string, command: string): string {
  return `bash ${shellQuote(launcher)} ${shellQuote(plan)} ${shellQuote(command)}`;
}

/** A session's standing jail (decision 0079): its holder process, told apart from a recycled pid. */
export interface StandingJail {
  pid: number;
  /** Field 22 of the holder's /proc/<pid>/stat (its start time in clock ticks). */
  startTicks: string;
}

const DROP_CAPS = "setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all";

/**
 * The command entering a standing jail instead of making one: the client's own shell checks that
 * the pid is still the holder (its start time), then `nsenter` joins the holder's user and mount
 * namespaces, and bash re-enters the working
 * directory through the jail's mounts (joining a mount namespace moves a process to its root) and
 * runs the command as written. Joining gives nsenter every capability in the namespace; a user
 * other than root loses them all at its exec of bash (no ambient or file capabilities), so only
 * for root does `setpriv` drop them first. Plain POSIX shell before `bash`, so a zsh or dash client shell runs it.
 */
export function enteredCommand(jail: StandingJail, command: string, root: boolean): string {
  // Fields 3 (the state: Z once it exited, waiting to be reaped) and 22 (the start time); the
  // holder's name (field 2) is "tail", one word.
  const skip = Array.from({ length: 18 }, () => "_").join(" ");
  const check = `read -r _ _ _tandem_state ${skip} _tandem_start _ </proc/${jail.pid}/stat 2>/dev/null && [ "$_tandem_state" != Z ] && [ "$_tandem_start" = ${shellQuote(jail.startTicks)} ]`;
  const script = `cd -- "$TANDEM_JAIL_CWD" 2>/dev/null || cd /; unset TANDEM_JAIL_CWD\n${command}`;
  const drop = root ? `${DROP_CAPS} -- ` : "";
  const enter = `TANDEM_JAIL_CWD=$PWD nsenter --preserve-credentials -U -m -t ${jail.pid} -- ${drop}bash -c ${shellQuote(script)}`;
  const gone = shellQuote(
    "tandem jail: this session's jail ended before the command ran, so it did not run; run it again",
  );
  return `if ${check}; then ${enter}; else printf '%s\\n' ${gone} >&2; (exit ${JAIL_SETUP_FAILED}); fi`;
}

/** macOS: the command under the session's seatbelt profile (`sandbox-exec -f`), output and exit code its own. */
export function seatbeltCommand(profile: string, command: string): string {
  return `sandbox-exec -f ${shellQuote(profile)} bash -c ${shellQuote(command)}`;
}

/** The new tool input: the original with only the command replaced. */
export function rewrittenInput(input: unknown, field: string, command: string): Record<string, unknown> {
  const base = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  return { ...base, [field]: command };
}

/**
 * What `tandem init` says about the kernel guard for the wired clients (plain data in, one line
 * out); `p` spells `run` for the person who starts the clients.
 */
export function guardNote(
  guard: GuardMode,
  clients: readonly { label: string; name: string; rewrites: boolean }[],
  p: Printer,
): string {
  const hooked = clients.filter((c) => c.rewrites).map((c) => c.label);
  const whole = clients.filter((c) => !c.rewrites).map((c) => spanned(p, "run", c.name));
  const how = [
    hooked.length > 0 ? `${hooked.join(", ")} through the pre-tool hook` : "",
    whole.length > 0 ? `the others when started as ${whole.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
  return guard === "kernel"
    ? `Kernel guard on ("guard": "kernel"): shell commands run in the jail: ${how}.`
    : `Kernel guard off ("guard": "reader"); with "guard": "kernel", shell commands run in the jail: ${how}.`;
}

/** Why a command was refused under `guard: "kernel"` and what to do: the kernel-guard rule's text. */
export function kernelGuardMessage(f: { detail: string; fix: string }): string {
  return `Tandem refused this command before it ran: the repository's config says "guard": "kernel", and ${f.detail}. To fix: ${f.fix}; or set "guard": "reader" in .tandem/config.jsonc to let commands run unjailed.`;
}
