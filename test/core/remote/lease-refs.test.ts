import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  encodeComponent,
  leaseFileText,
  leaseRef,
  parseLeaseFile,
  pathOfRef,
} from "../../../src/core/remote/lease-refs.js";

const checkRef = (ref: string) => {
  try {
    execFileSync("git", ["check-ref-format", ref], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

describe("the ref of a leased path", () => {
  it.each([
    ["src/a.ts", "refs/tandem/lease/src/a.ts"],
    ["src/", "refs/tandem/lease/src"],
    ["./src//a.ts", "refs/tandem/lease/src/a.ts"],
    [".github/ci.yml", "refs/tandem/lease/%2Egithub/ci.yml"],
    ["a..b/c.", "refs/tandem/lease/a%2E.b/c%2E"],
    ["x.lock", "refs/tandem/lease/x%2Elock"],
    ["my file @{1}.txt", "refs/tandem/lease/my%20file%20%40%7B1%7D.txt"],
    ["50%/ü:*?[", "refs/tandem/lease/50%25/%C3%BC%3A%2A%3F%5B"],
  ])("%s → %s, a legal ref that names the path back", (path, ref) => {
    expect(leaseRef(path)).toBe(ref);
    expect(checkRef(ref)).toBe(true);
    expect(pathOfRef(ref)).toBe(
      path
        .split("/")
        .filter((p) => p && p !== ".")
        .join("/"),
    );
  });

  it("escapes differently spelled components to different refs", () => {
    const names = ["a.b", "a%2Eb", "a b", "a%20b", ".a", "%2Ea", "a.lock", "a%2Elock"];
    expect(new Set(names.map(encodeComponent)).size).toBe(names.length);
  });

  it("names a directory by the ref that a file lease below it would have as its folder", () => {
    expect(leaseRef("src/a.ts").startsWith(`${leaseRef("src")}/`)).toBe(true);
  });

  it("is not a lease ref outside the prefix", () => {
    expect(pathOfRef("refs/tandem/leases")).toBeNull();
    expect(pathOfRef("refs/tandem/lease/")).toBeNull();
  });
});

describe("the document in a lease ref", () => {
  const lease = { path: "a", checkout: "c", checkoutName: "n", session: null, task: "t", expires: 5 };
  it("reads back what it wrote; refuses another format or damage", () => {
    expect(parseLeaseFile(leaseFileText(lease))).toEqual(lease);
    expect(parseLeaseFile(JSON.stringify({ format: 2, lease }))).toBeNull();
    expect(parseLeaseFile("{")).toBeNull();
  });
});
