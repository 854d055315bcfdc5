/** node:crypto on first use: loading it costs every command a few ms. */
const crypto = () => process.getBuiltinModule("node:crypto");

import {
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

/** A stored blob: its name (hex SHA-256 of the bytes) and its length. */
export interface BlobRef {
  sha256: string;
  bytes: number;
}

const SHA256 = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = ".tmp-";
const CHUNK = 1024 * 1024;

/** Where a blob lives; rejects anything but a hex digest so a name can never escape the directory. */
export function blobPath(blobsDir: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`invalid blob name: ${JSON.stringify(sha256)}`);
  return join(blobsDir, sha256);
}

/** A fresh temp path inside the blobs directory, so the final rename never crosses filesystems. */
export function blobTempPath(blobsDir: string): string {
  return join(blobsDir, `${TEMP_PREFIX}${process.pid}-${crypto().randomBytes(8).toString("hex")}`);
}

/** Creates the directory; a newly created one is fsynced into its parent so it survives a crash. */
export function ensureBlobsDir(blobsDir: string): void {
  if (mkdirSync(blobsDir, { recursive: true }) !== undefined) fsyncDir(dirname(blobsDir));
}

function fsyncDir(dir: string): void {
  // Windows cannot open a directory for fsync; elsewhere a rename is only durable after this.
  if (process.platform === "win32") return;
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Hashes an open file in chunks (never the whole file in memory). */
function hashFd(fd: number): BlobRef {
  const hash = crypto().createHash("sha256");
  const buf = Buffer.allocUnsafe(CHUNK);
  let bytes = 0;
  for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null)) {
    hash.update(buf.subarray(0, n));
    bytes += n;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/**
 * How hard a blob is pushed to the disk. `durable`: fsynced with its directory before the write
 * returns, for bytes that are about to be destroyed or exist nowhere else. `copy`: left to the
 * operating system's write-back, for a copy of bytes that are still in place in the work tree and
 * were written there without an fsync either (decision 0036): the copy is as durable as its
 * original, and `syncBlob` makes it durable the moment it becomes the only one.
 */
export type BlobDurability = "durable" | "copy";

/** Hashes (and, when durable, fsyncs) a file in one pass over an open descriptor. */
function hashAndSync(file: string, durability: BlobDurability = "durable"): BlobRef {
  const fd = openSync(file, "r");
  try {
    const ref = hashFd(fd);
    if (durability === "durable") fsyncSync(fd);
    return ref;
  } finally {
    closeSync(fd);
  }
}

/** Moves `src` to `dest` inside `blobsDir`; across filesystems it copies to a local temp first. */
function moveInto(blobsDir: string, src: string, dest: string): void {
  try {
    renameSync(src, dest);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
  }
  const local = blobTempPath(blobsDir);
  try {
    copyFileSync(src, local);
    hashAndSync(local);
    renameSync(local, dest);
  } finally {
    rmSync(local, { force: true });
  }
  rmSync(src, { force: true });
}

/**
 * Marks a blob as just stored, by its path: `tandem gc` never deletes a blob stored within
 * the last hour (BLOB_GRACE_MS), so its writer has that long to record it. False when the
 * blob is gone (gc took it between the check and now): the caller stores it again.
 */
function touch(file: string): boolean {
  const now = new Date();
  try {
    utimesSync(file, now, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stores an already written file under its digest: fsync, rename, fsync the directory (a `copy`
 * skips both fsyncs).
 * The temp file is consumed. An existing blob with the right content wins (idempotent);
 * a corrupt one is replaced. Either way the stored blob's time is now, which keeps it
 * from `tandem gc` until its writer has recorded it.
 */
export function writeBlobFromFile(
  blobsDir: string,
  tmpFile: string,
  durability: BlobDurability = "durable",
): BlobRef {
  ensureBlobsDir(blobsDir);
  const ref = hashAndSync(tmpFile, "copy");
  const dest = blobPath(blobsDir, ref.sha256);
  if (verifyBlob(blobsDir, ref.sha256) && touch(dest)) {
    rmSync(tmpFile, { force: true });
    // The blob there may have been stored as a copy: durable now means durable.
    if (durability === "durable") syncBlob(blobsDir, ref.sha256);
    return ref;
  }
  if (durability === "durable") fsyncFile(tmpFile);
  moveInto(blobsDir, tmpFile, dest);
  if (durability === "durable") fsyncDir(blobsDir);
  touch(dest);
  return ref;
}

/**
 * Forces a stored blob (and its name) to the disk: a copy kept as `copy` whose original was just
 * replaced is now the only one. False when the blob is not there.
 */
export function syncBlob(blobsDir: string, sha256: string): boolean {
  const file = blobPath(blobsDir, sha256);
  try {
    fsyncFile(file);
  } catch {
    return false;
  }
  fsyncDir(blobsDir);
  return true;
}

function fsyncFile(file: string): void {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Stores bytes under their digest (durably unless told they are a copy of bytes still in place). */
export function writeBlob(blobsDir: string, data: Buffer, durability: BlobDurability = "durable"): BlobRef {
  ensureBlobsDir(blobsDir);
  const tmp = blobTempPath(blobsDir);
  try {
    writeFileSync(tmp, data, { flag: "wx", mode: 0o600 });
    return writeBlobFromFile(blobsDir, tmp, durability);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** True only when the blob exists and its bytes still hash to its name. */
export function verifyBlob(blobsDir: string, sha256: string): boolean {
  const file = blobPath(blobsDir, sha256);
  if (!existsSync(file)) return false;
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return false;
  }
  try {
    return fstatSync(fd).isFile() && hashFd(fd).sha256 === sha256;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * Hands a blob to `onChunk` in 1 MiB pieces, so a 50 MB patch never sits in memory whole. The
 * hash is checked after the last piece and a mismatch throws, so a caller that used the pieces
 * must still fail as for readBlob. A piece is only valid during its call.
 */
export function streamBlob(blobsDir: string, sha256: string, onChunk: (chunk: Buffer) => void): void {
  const fd = openSync(blobPath(blobsDir, sha256), "r");
  try {
    const hash = crypto().createHash("sha256");
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null)) {
      const chunk = buf.subarray(0, n);
      hash.update(chunk);
      onChunk(chunk);
    }
    const actual = hash.digest("hex");
    if (actual !== sha256) throw new Error(`blob ${sha256} is corrupt (content hashes to ${actual})`);
  } finally {
    closeSync(fd);
  }
}

/** Reads a whole blob, refusing bytes that no longer match their name. */
export function readBlob(blobsDir: string, sha256: string): Buffer {
  const data = readFileSync(blobPath(blobsDir, sha256));
  const actual = crypto().createHash("sha256").update(data).digest("hex");
  if (actual !== sha256) throw new Error(`blob ${sha256} is corrupt (content hashes to ${actual})`);
  return data;
}

/** Every finished blob's name, size and time, for `tandem gc`; temp files are not blobs. */
export function listBlobs(blobsDir: string): { name: string; bytes: number; mtimeMs: number }[] {
  if (!existsSync(blobsDir)) return [];
  const out: { name: string; bytes: number; mtimeMs: number }[] = [];
  for (const name of readdirSync(blobsDir)) {
    if (!SHA256.test(name)) continue;
    try {
      const st = statSync(join(blobsDir, name));
      if (st.isFile()) out.push({ name, bytes: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // Gone meanwhile: nothing to list.
    }
  }
  return out;
}

/**
 * Deletes one unreferenced blob unless a writer stored it again since it was listed: it is
 * first renamed aside (a writer's later check then finds nothing and stores it anew), and
 * its time read again there; a blob touched within `graceMs` is put back. Returns the bytes
 * freed, 0 when it was kept or already gone.
 */
export function sweepBlob(blobsDir: string, name: string, graceMs: number, now = Date.now()): number {
  const file = blobPath(blobsDir, name);
  const aside = join(blobsDir, `${TEMP_PREFIX}gc-${process.pid}-${name}`);
  try {
    renameSync(file, aside);
  } catch {
    return 0;
  }
  const st = statSync(aside);
  if (now - st.mtimeMs < graceMs) {
    // Stored again meanwhile: back where it was (a copy stored since holds the same bytes).
    if (existsSync(file)) rmSync(aside, { force: true });
    else renameSync(aside, file);
    return 0;
  }
  rmSync(aside, { force: true });
  return st.size;
}

/**
 * Deletes temp files older than `maxAgeMs` that a crashed writer left behind.
 * Finished blobs are never touched. Returns how many were removed.
 */
export function removeStaleTempFiles(blobsDir: string, maxAgeMs: number, now = Date.now()): number {
  if (!existsSync(blobsDir)) return 0;
  let removed = 0;
  for (const name of readdirSync(blobsDir)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const file = join(blobsDir, name);
    try {
      if (now - statSync(file).mtimeMs < maxAgeMs) continue;
      rmSync(file, { force: true });
      removed++;
    } catch {
      // Vanished or unreadable: another writer owns it; leave it.
    }
  }
  return removed;
}
