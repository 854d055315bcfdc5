/**
 * A session's standing jail (decision 0079): one user and mount namespace per session, made on its
 * first jailed command and held by a process that waits for the agent to end. Each later command
 * enters it with `nsenter` instead of making a namespace and its binds again. When the plan's text
 * or the identity of a file in it changed (a new claim, a release, a peer's save by rename), the
 * hook starts a new holder from the new plan and ends the old one: commands still running in the
 * old namespace keep the view they started with, as a per-command jail's would. (Binding anew
 * inside the old namespace would need a process there with capabilities: `nsenter` loses them at
 * its exec, and one kept for it could be signalled by every jailed command.) Anything that goes
 * wrong returns null, and the caller jails the command the per-command way.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import type { StandingJail } from "../core/jail/rewrite.js";
import { procInfo } from "../sessions/proc.js";

/** What the hook recorded of a standing jail: its holder, and the plan its binds match. */
interface HolderRecord extends StandingJail {
  agent: number;
  /** The plan's paths with each one's device and inode (or "-" when missing) when it started. */
  fingerprint: string;
}

const START_TIMEOUT_MS = 10_000;

/** The standing jail for the plan at `planFile`, started anew when the plan changed; null when it cannot be. */
export function standingJail(
  launcher: string,
  planFile: string,
  paths: readonly string[],
  agent: number | null,
): StandingJail | null {
  if (process.platform !== "linux" || agent === null || agent <= 0) return null;
  const base = planFile.replace(/\.plan$/, "");
  const fingerprint = fingerprintOf(paths);
  const known = readRecord(`${base}.holder`);
  if (known && known.agent === agent && known.fingerprint === fingerprint && alive(known)) return known;
  const started = start(launcher, planFile, agent);
  if (known && alive(known)) stop(known);
  return started ? record(base, { ...started, agent, fingerprint }) : null;
}

function fingerprintOf(paths: readonly string[]): string {
  return paths
    .map((p) => {
      const st = statSync(p, { throwIfNoEntry: false });
      return `${p}\0${st ? `${st.dev}:${st.ino}` : "-"}`;
    })
    .join("\0");
}

function readRecord(file: string): HolderRecord | null {
  try {
    const r = JSON.parse(readFileSync(file, "utf8")) as Partial<HolderRecord>;
    const ok =
      typeof r.pid === "number" &&
      typeof r.startTicks === "string" &&
      typeof r.agent === "number" &&
      typeof r.fingerprint === "string";
    return ok ? (r as HolderRecord) : null;
  } catch {
    return null;
  }
}

function alive(j: StandingJail): boolean {
  return procInfo(j.pid)?.start === `proc:${j.startTicks}`;
}

function stop(j: StandingJail): void {
  try {
    process.kill(j.pid, "SIGTERM");
  } catch {
    // Gone already.
  }
}

/** Starts the holder through the launcher's `--start`, which prints its pid once the binds are made. */
function start(launcher: string, planFile: string, agent: number): StandingJail | null {
  const res = process
    .getBuiltinModule("node:child_process")
    .spawnSync("bash", [launcher, "--start", planFile, String(agent)], {
      encoding: "utf8",
      timeout: START_TIMEOUT_MS,
    });
  const pid = Number(res.stdout?.trim());
  if (res.status !== 0 || !Number.isInteger(pid) || pid <= 0) return null;
  const info = procInfo(pid);
  return info?.start.startsWith("proc:") ? { pid, startTicks: info.start.slice("proc:".length) } : null;
}

/** Records the holder and the plan its binds match, by rename (a reader never sees half of it). */
function record(base: string, r: HolderRecord): HolderRecord {
  const tmp = `${base}.holder.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(r));
  renameSync(tmp, `${base}.holder`);
  return r;
}
