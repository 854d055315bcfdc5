/** What `tandem recover --list` prints: one owner's preserved versions, or every owner's. */
import { existsSync } from "node:fs";
import { type Printer, spanned } from "../../core/printed.js";
import { formatAge } from "../../core/sessions/liveness.js";
import { TandemError } from "../../errors.js";
import { blobsDirOf } from "../../safety/preserve.js";
import { preservedPaths, versionsOf } from "../../safety/recover.js";
import { blobPath } from "../../store/blobs/files.js";
import type { Db } from "../../store/db.js";
import { preservingOwners } from "../../store/safety/kept.js";
import { type SessionRow, sessionById } from "../../store/sessions/rows.js";
import type { Io, Project } from "../context.js";

const WHY: Record<string, string> = {
  "peer-command": "before a peer's command",
  "before-recover": "kept before a recovery",
  owner: "left by your own tool call",
  clobbered: "what replaced your bytes",
  recovered: "put back by a recovery",
};

function pathLines(db: Db, root: string, owner: SessionRow, indent: string): string[] {
  return preservedPaths(db, owner.id)
    .filter((p) => p.worktree === root)
    .map((p) => `${indent}${p.path}  (${p.versions} version${p.versions === 1 ? "" : "s"})\n`);
}

function versionLines(db: Db, project: Project, owner: SessionRow, key: string, indent: string): string[] {
  const now = Date.now();
  return versionsOf(db, project.resolved.root, key, owner.id).map((v) => {
    const why = WHY[v.reason] ?? v.reason;
    const gone = existsSync(blobPath(blobsDirOf(project.stateDir), v.blob))
      ? ""
      : "  (its copy is missing from Tandem's store: cannot be restored)";
    return `${indent}version ${v.version}  ${formatAge(now - v.ts)} ago  ${v.bytes} bytes  ${why}${gone}\n`;
  });
}

/** One owner's preserved files, or the versions of `key`. */
export function listVersions(io: Io, db: Db, project: Project, owner: SessionRow, key: string | null): void {
  if (key === null) {
    const lines = pathLines(db, project.resolved.root, owner, "");
    if (lines.length === 0) io.out(`No preserved files for ${owner.name}.\n`);
    for (const line of lines) io.out(line);
    return;
  }
  const lines = versionLines(db, project, owner, key, "");
  if (lines.length === 0) throw new TandemError(`no preserved version of ${key} for ${owner.name}.`);
  for (const line of lines) io.out(line);
}

function ownerHeading(s: SessionRow): string {
  const state = s.ended_seq === null ? "" : ", ended";
  const task = s.task ? `, task: ${s.task}` : "";
  return `${s.name} (${s.client}${state}${task})\n`;
}

/**
 * Every session's preserved files (or versions of `key`) in this worktree, grouped by owner: a
 * person's shell acts for no session, so it sees them all and names one with `--session`.
 */
export function listEveryOwner(io: Io, db: Db, project: Project, key: string | null, p: Printer): void {
  const owners = preservingOwners(db, project.resolved.root, key)
    .map((id) => sessionById(db, id))
    .filter((s): s is SessionRow => s !== undefined);
  if (owners.length === 0) {
    io.out(key === null ? "No preserved files in this worktree.\n" : `No preserved version of ${key}.\n`);
    return;
  }
  owners.forEach((s, i) => {
    io.out(`${i === 0 ? "" : "\n"}${ownerHeading(s)}`);
    const lines =
      key === null ? pathLines(db, project.resolved.root, s, "  ") : versionLines(db, project, s, key, "  ");
    for (const line of lines) io.out(line);
  });
  const path = key === null ? { slot: "PATH" } : { path: key };
  io.out(
    `\nPut one back with ${spanned(p, "recover", path, "--session", { slot: "NAME" })} (add \`--version N\` for another version).\n`,
  );
}
