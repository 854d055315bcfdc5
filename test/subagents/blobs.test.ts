import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  blobPath,
  blobTempPath,
  readBlob,
  removeStaleTempFiles,
  streamBlob,
  verifyBlob,
  writeBlob,
  writeBlobFromFile,
} from "../../src/store/blobs/files.js";
import { tempDir } from "../helpers/repo.js";

const sha = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

describe("blob store", () => {
  it("stores bytes under their sha256 and reads them back", () => {
    const dir = join(tempDir(), "state", "blobs");
    const data = Buffer.from([0, 1, 2, 255, 10, 13]);
    const ref = writeBlob(dir, data);
    expect(ref).toEqual({ sha256: sha(data), bytes: 6 });
    expect(readFileSync(blobPath(dir, ref.sha256))).toEqual(data);
    expect(readBlob(dir, ref.sha256)).toEqual(data);
    expect(verifyBlob(dir, ref.sha256)).toBe(true);
    expect(readdirSync(dir)).toEqual([ref.sha256]);
  });

  it("is idempotent and leaves no temp files", () => {
    const dir = tempDir();
    const a = writeBlob(dir, Buffer.from("same"));
    const b = writeBlob(dir, Buffer.from("same"));
    expect(b).toEqual(a);
    expect(readdirSync(dir)).toEqual([a.sha256]);
  });

  it("stores an empty blob", () => {
    const dir = tempDir();
    const ref = writeBlob(dir, Buffer.alloc(0));
    expect(ref).toEqual({ sha256: sha(""), bytes: 0 });
    expect(verifyBlob(dir, ref.sha256)).toBe(true);
  });

  it("consumes a temp file written in the directory", () => {
    const dir = tempDir();
    const tmp = blobTempPath(dir);
    writeFileSync(tmp, "streamed content\n");
    const ref = writeBlobFromFile(dir, tmp);
    expect(existsSync(tmp)).toBe(false);
    expect(ref.sha256).toBe(sha("streamed content\n"));
    expect(readdirSync(dir)).toEqual([ref.sha256]);
  });

  it("consumes a temp file from another directory", () => {
    const dir = join(tempDir(), "blobs");
    const tmp = join(tempDir(), "elsewhere");
    writeFileSync(tmp, "x");
    const ref = writeBlobFromFile(dir, tmp);
    expect(existsSync(tmp)).toBe(false);
    expect(readBlob(dir, ref.sha256).toString()).toBe("x");
  });

  it("detects corruption and replaces a corrupt blob on rewrite", () => {
    const dir = tempDir();
    const ref = writeBlob(dir, Buffer.from("good"));
    writeFileSync(blobPath(dir, ref.sha256), "evil");
    expect(verifyBlob(dir, ref.sha256)).toBe(false);
    expect(() => readBlob(dir, ref.sha256)).toThrow(/corrupt/);
    writeBlob(dir, Buffer.from("good"));
    expect(verifyBlob(dir, ref.sha256)).toBe(true);
  });

  it("reports a missing blob as unverified", () => {
    const dir = tempDir();
    expect(verifyBlob(dir, sha("nothing"))).toBe(false);
    mkdirSync(join(dir, sha("dir")));
    expect(verifyBlob(dir, sha("dir"))).toBe(false);
  });

  it("rejects names that are not a sha256", () => {
    const dir = tempDir();
    expect(() => blobPath(dir, "../escape")).toThrow(/invalid blob name/);
    expect(() => blobPath(dir, "A".repeat(64))).toThrow(/invalid blob name/);
    expect(() => verifyBlob(dir, "abc")).toThrow(/invalid blob name/);
  });

  it("sweeps only stale temp files", () => {
    const dir = tempDir();
    const ref = writeBlob(dir, Buffer.from("kept"));
    const stale = blobTempPath(dir);
    const fresh = blobTempPath(dir);
    writeFileSync(stale, "partial");
    writeFileSync(fresh, "in progress");
    utimesSync(stale, new Date(0), new Date(Date.now() - 3_600_000));
    expect(removeStaleTempFiles(dir, 60_000)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([ref.sha256, fresh.slice(dir.length + 1)].sort());
  });
});

describe("streaming a blob", () => {
  it("hands over every byte in order, in pieces of at most 1 MiB", () => {
    const dir = tempDir();
    const data = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) % 251;
    const { sha256 } = writeBlob(dir, data);
    const pieces: Buffer[] = [];
    streamBlob(dir, sha256, (c) => pieces.push(Buffer.from(c)));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.concat(pieces).equals(data)).toBe(true);
  });

  it("refuses a blob whose bytes no longer match its name, after the last piece", () => {
    const dir = tempDir();
    const { sha256 } = writeBlob(dir, Buffer.from("a\nb\n"));
    writeFileSync(join(dir, sha256), "a\nc\n");
    let seen = 0;
    expect(() => streamBlob(dir, sha256, (c) => (seen += c.length))).toThrow(/is corrupt/);
    expect(seen).toBe(4);
  });
});
