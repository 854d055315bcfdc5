import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blobPath, readBlob, syncBlob, verifyBlob, writeBlob } from "../../../src/store/blobs/files.js";
import { tempDir } from "../../helpers/repo.js";

describe("blob durability", () => {
  it("stores a copy of bytes still in place exactly like a durable blob, under the same name", () => {
    const dir = join(tempDir(), "blobs");
    const copy = writeBlob(dir, Buffer.from("owner's bytes\n"), "copy");
    const durable = writeBlob(join(tempDir(), "blobs"), Buffer.from("owner's bytes\n"));
    expect(copy).toEqual(durable);
    expect(verifyBlob(dir, copy.sha256)).toBe(true);
    expect(readBlob(dir, copy.sha256).toString()).toBe("owner's bytes\n");
  });

  it("forces a kept copy to the disk when it becomes the only one, and says so when it is missing", () => {
    const dir = join(tempDir(), "blobs");
    const ref = writeBlob(dir, Buffer.from("v1\n"), "copy");
    expect(syncBlob(dir, ref.sha256)).toBe(true);
    expect(existsSync(blobPath(dir, ref.sha256))).toBe(true);
    expect(syncBlob(dir, "f".repeat(64))).toBe(false);
  });
});
