/**
 * macOS: the session's seatbelt profile (`<state>/jail/<name>.sb`), written from its plan by the
 * pre-tool hook. It refuses writes to what does not move — Tandem's state (the profile included),
 * the installation, git's config and hooks, the wiring; peers' files stay with the reader
 * (src/core/jail/seatbelt.ts decides the text).
 */
import { mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MountPlan } from "../core/jail/plan.js";
import { seatbeltProfile } from "../core/jail/seatbelt.js";
import { keyName } from "./keys.js";

export function writeSeatbeltProfile(stateDir: string, session: string, plan: MountPlan): string {
  const dir = join(stateDir, "jail");
  mkdirSync(dir, { recursive: true });
  const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const text = seatbeltProfile(
    plan.binds.map((b) => ({ path: b.path, dir: isDir(b.path), reasons: b.reasons })),
  );
  const file = join(dir, `${keyName(session)}.sb`);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
  return file;
}
