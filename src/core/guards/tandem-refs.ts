/**
 * `git push` that deletes or rewrites `refs/tandem/*` on a remote (presence, leases): every clone
 * sharing the remote coordinates through them, so an agent's push there is refused up front
 * (decision 0023). Pure: judged from the words after `push`.
 */

import { type Printer, spanned } from "../printed.js";

export const REFS_RULE = "tandem-refs";

/** Options whose value is the next word when written without `=`. */
const VALUED = new Set(["-o", "--push-option", "--receive-pack", "--exec", "--repo"]);

const TANDEM = "refs/tandem/";

/**
 * Whether a remote ref name (as a destination) may name a ref under refs/tandem/: spelled out,
 * unqualified (`tandem/leases`: git's `refs/<name>` rule finds it), or a pattern whose fixed start
 * could reach it (`refs/*`, `*`).
 */
function mayNameTandem(name: string, unqualifiedCounts: boolean): boolean {
  const star = name.indexOf("*");
  if (star >= 0) {
    const head = name.slice(0, star);
    return TANDEM.startsWith(head) || head.startsWith(TANDEM) || head.startsWith("tandem/");
  }
  return name.startsWith(TANDEM) || (unqualifiedCounts && name.startsWith("tandem/"));
}

interface PushWords {
  options: string[];
  refspecs: string[];
}

function splitPush(args: readonly string[]): PushWords {
  const options: string[] = [];
  const operands: string[] = [];
  let repoGiven = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("-") && a !== "-") {
      options.push(a);
      if (a.startsWith("--repo")) repoGiven = true;
      if (VALUED.has(a)) i++;
      continue;
    }
    operands.push(a);
  }
  // The first operand is the repository unless `--repo` named it.
  return { options, refspecs: repoGiven ? operands : operands.slice(1) };
}

function hasShort(options: readonly string[], letter: string): boolean {
  return options.some((o) => /^-[a-zA-Z0-9]+$/.test(o) && o.includes(letter));
}

/** What each refspec does to refs/tandem/* on the remote, in words; empty when nothing. */
function refspecEffects(refspecs: readonly string[], deleting: boolean, pruning: boolean): string[] {
  const out: string[] = [];
  for (const spec of refspecs) {
    const bare = spec.startsWith("+") ? spec.slice(1) : spec;
    if (deleting) {
      if (mayNameTandem(bare, true)) out.push(`deletes ${bare}`);
      continue;
    }
    const colon = bare.indexOf(":");
    const src = colon < 0 ? bare : bare.slice(0, colon);
    const dst = colon < 0 ? bare : bare.slice(colon + 1);
    // Without a colon the remote ref is the local ref's own full name: only a spelled-out one counts.
    if (!mayNameTandem(dst, colon >= 0)) continue;
    if (colon >= 0 && src === "") out.push(`deletes ${dst}`);
    else if (pruning && dst.includes("*")) out.push(`prunes ${dst} (deleting what this clone lacks)`);
    else out.push(`rewrites ${dst}`);
  }
  return out;
}

/**
 * The ways `git push ARGS` would delete or rewrite refs/tandem/* on the remote, as phrases for the
 * message (`deletes refs/tandem/leases`); empty when it would not. A dry run changes nothing.
 */
export function tandemRefPush(args: readonly string[]): string[] {
  const { options, refspecs } = splitPush(args);
  if (options.includes("--dry-run") || hasShort(options, "n")) return [];
  if (options.includes("--mirror")) return ["mirrors every ref, deleting or rewriting refs/tandem/*"];
  const deleting = options.includes("--delete") || hasShort(options, "d");
  const pruning = options.includes("--prune");
  // With no refspec the configuration decides what is pushed, and so what --prune deletes.
  if (pruning && refspecs.length === 0) return ["prunes the refs the configuration pushes"];
  return refspecEffects(refspecs, deleting, pruning);
}

/** The denial: which command, what it would do, and what to do instead, spelled for the agent by `p`. */
export function refsMessage(pushes: readonly string[], p: Printer): string {
  const lines = ["Tandem refused this command before it ran; nothing was changed."];
  for (const p of pushes) lines.push(`- ${p}`);
  lines.push(
    "refs/tandem/* on the remote hold every clone's presence and reservations: deleting or rewriting them lets another clone take paths this one holds.",
    `What to do: push your branches only (\`git push origin <branch>\`); reservations are changed with ${spanned(p, "reserve", { slot: "PATH" })} / ${spanned(p, "reserve", "--release", { slot: "PATH" })}. If the refs really must change, ask the user to do it themselves.`,
  );
  return lines.join("\n");
}
