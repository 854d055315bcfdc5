/** What the store says each blob holds, for `tandem doctor` to check the bytes are still there. */
import { type Db, stmt } from "../db.js";

export interface BlobRef {
  blob: string;
  /** In words: `f.txt version 2 (kept for agent-dove)`. */
  what: string;
}

/** Every preserved version and every sub-agent artifact the store points at a blob for. */
export function blobReferences(db: Db): BlobRef[] {
  const preserved = stmt(
    db,
    `SELECT p.path, p.version, p.blob, coalesce(s.name, p.owner) AS owner
       FROM preserved p LEFT JOIN sessions s ON s.id = p.owner ORDER BY p.seq`,
  ).all() as { path: string; version: number; blob: string; owner: string }[];
  const captures = stmt(
    db,
    `SELECT c.sub_id, c.number, c.mbox_blob, c.patch_blob FROM subagent_captures c
      WHERE c.sub_id NOT IN (SELECT sub_id FROM expired_subagents) ORDER BY c.recorded_seq`,
  ).all() as { sub_id: string; number: number; mbox_blob: string | null; patch_blob: string | null }[];
  return [
    ...preserved.map((p) => ({ blob: p.blob, what: `${p.path} version ${p.version} (kept for ${p.owner})` })),
    ...captures.flatMap((c) =>
      [c.mbox_blob, c.patch_blob]
        .filter((b): b is string => typeof b === "string" && b !== "")
        .map((blob) => ({ blob, what: `sub-agent ${c.sub_id} capture ${c.number}` })),
    ),
  ];
}
