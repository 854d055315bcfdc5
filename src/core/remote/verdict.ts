import { type Printer, spanned } from "../printed.js";
import type { RemoteHolder } from "./holders.js";

export type RemoteMode = "warn" | "block" | "off";

export interface RemoteVerdict {
  allow: boolean;
  /** Why the write is refused (block, or a lease). */
  reason: string | null;
  /** What the agent is told while the write goes ahead (warn). */
  warning: string | null;
}

const PASS: RemoteVerdict = { allow: true, reason: null, warning: null };

/** The holders whose hold refuses a write: leases always, the rest when the mode blocks. */
export function remoteRefusing(holders: readonly RemoteHolder[], mode: RemoteMode): RemoteHolder[] {
  const leases = holders.filter((h) => h.why === "lease");
  return mode === "block" ? [...leases, ...holders.filter((h) => h.why !== "lease")] : leases;
}

/** The refusal of a write other checkouts' agents hold: each holder, and what to do. */
export function remoteRefusalMessage(refusing: readonly RemoteHolder[], now: number, p: Printer): string {
  return [
    "Tandem refused this edit; nothing was changed and nothing was claimed.",
    "Agents in other checkouts of this repository hold these files:",
    ...refusing.map((h) => line(h, now)),
    `What to do: work on other files, or coordinate with the user; a reservation ends when its holder runs ${spanned(p, "reserve", "--release", { slot: "PATH" })} or it expires.`,
  ].join("\n");
}

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s}s`;
  const m = Math.round(s / 60);
  return m < 90 ? `${m} min` : `${Math.round(m / 60)} h`;
}

function line(h: RemoteHolder, now: number): string {
  const what = h.why === "lease" ? "reserved" : h.why === "claim" ? "being edited" : "changed, uncommitted";
  const who = h.session ? ` by ${h.session}` : "";
  const where = h.branch ? ` on branch ${h.branch}` : "";
  const task = h.task ? `, task "${h.task}"` : "";
  const when =
    h.why === "lease" ? `until ${new Date(h.asOf).toISOString()}` : `as of ${age(now - h.asOf)} ago`;
  return `- ${h.path}: ${what}${who} in ${h.machine}${where}${task} (${when})`;
}

/**
 * The gate's answer for other checkouts' work (docs/decisions/0014): leases refuse like local
 * claims; claims and dirty paths warn, refuse, or are ignored as `agents.remoteClaims` says.
 * `p` spells the commands the agent is told.
 */
export function remoteVerdict(
  holders: readonly RemoteHolder[],
  mode: RemoteMode,
  now: number,
  p: Printer,
): RemoteVerdict {
  const others = mode === "off" ? [] : holders.filter((h) => h.why !== "lease");
  const refusing = remoteRefusing(holders, mode);
  if (refusing.length > 0) {
    return {
      allow: false,
      reason: remoteRefusalMessage(refusing, now, p),
      warning: null,
    };
  }
  if (others.length === 0) return PASS;
  return {
    allow: true,
    reason: null,
    warning: [
      "Tandem: agents in other checkouts of this repository are working on files you are editing; your changes may conflict when the branches meet:",
      ...others.map((h) => line(h, now)),
      `Consider other files, or coordinate with the user (${spanned(p, "conflicts")} shows the forecast).`,
    ].join("\n"),
  };
}
