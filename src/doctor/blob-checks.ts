/**
 * Preserved versions and sub-agent artifacts whose bytes are gone from the blob store (deleted
 * outside Tandem): `tandem recover` cannot restore them, and the user should hear it here first.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { blobPath } from "../store/blobs/files.js";
import { blobReferences } from "../store/blobs/refs.js";
import type { Finding } from "./finding.js";
import { readStore } from "./read-store.js";

const SHOWN = 5;

export function blobFindings(stateDir: string): Finding[] {
  const blobsDir = join(stateDir, "blobs");
  const found = readStore(stateDir, (db) => {
    const refs = blobReferences(db);
    const missing = refs.filter((r) => !existsSync(blobPath(blobsDir, r.blob))).map((r) => r.what);
    return { missing, total: refs.length };
  });
  if (found === null) return [];
  const { missing, total } = found;
  if (missing.length === 0)
    return [{ level: "ok", check: "blobs", detail: `all ${total} stored copies present` }];
  const more = missing.length > SHOWN ? `, and ${missing.length - SHOWN} more` : "";
  return [
    {
      level: "problem",
      check: "blobs",
      detail: `${missing.length} of ${total} stored copies are missing from ${blobsDir} (deleted outside Tandem): ${missing.slice(0, SHOWN).join("; ")}${more}`,
      fix: "recover cannot restore these versions; put the deleted blob files back from a backup if you have one. The working files themselves were not touched, and copies made from now on are kept as usual.",
    },
  ];
}
