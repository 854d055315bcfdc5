import { describe, expect, it } from "vitest";
import {
  overBounds,
  type RetentionPolicy,
  type SavedVersion,
  versionsToExpire,
} from "../../../src/core/upkeep/policy.js";

const MB = 1024 * 1024;
const POLICY: RetentionPolicy = {
  versionsPerFile: 3,
  largeFileBytes: 10 * MB,
  largeFileVersions: 2,
  sessionBytes: 100 * MB,
  repositoryBytes: 150 * MB,
};

/** Versions 1..n of one file of one owner, each with its own blob of `bytes`, one a second apart. */
function file(path: string, owner: string, n: number, bytes: number, pinned: number[] = []): SavedVersion[] {
  return Array.from({ length: n }, (_, i) => ({
    key: ["/r", path, owner, i + 1] as SavedVersion["key"],
    blob: `${path}-${owner}-${i + 1}`,
    bytes,
    ts: 1_000 * (i + 1) + (path.charCodeAt(0) - 97),
    pinned: pinned.includes(i + 1),
  }));
}

const expired = (vs: SavedVersion[], p = POLICY) =>
  versionsToExpire(vs, p).expire.map(([, path, owner, v]) => `${path}:${owner}:${v}`);

describe("the retention policy (decision 0065)", () => {
  it.each<[string, SavedVersion[], string[]]>([
    ["a file within its versions keeps them all", file("a", "s1", 3, 1_000), []],
    [
      "the first and the latest stay; the middle goes oldest first",
      file("a", "s1", 6, 1_000),
      ["a:s1:2", "a:s1:3"],
    ],
    ["a pinned middle version stays (a clobber replaced it)", file("a", "s1", 6, 1_000, [2]), ["a:s1:3"]],
    [
      "a large file keeps its latest N only, the first too goes",
      file("big", "s1", 5, 50 * MB),
      ["big:s1:1", "big:s1:2", "big:s1:3"],
    ],
    [
      "each owner's versions of a file count apart",
      [...file("a", "s1", 5, 1_000), ...file("a", "s2", 5, 1_000)],
      ["a:s1:2", "a:s2:2"],
    ],
  ])("%s", (_name, versions, want) => {
    expect(expired(versions)).toEqual(want);
  });

  it("a session over its bytes lets its oldest spare versions go until it is under", () => {
    // Six 9 MB versions of three files: 54 MB, each file's latest stays (27 MB).
    const vs = [...file("a", "s1", 2, 9 * MB), ...file("b", "s1", 2, 9 * MB), ...file("c", "s1", 2, 9 * MB)];
    const verdict = versionsToExpire(vs, { ...POLICY, sessionBytes: 40 * MB });
    expect(verdict.expire.map((k) => `${k[1]}:${k[3]}`)).toEqual(["a:1", "b:1"]);
    expect(verdict.over).toEqual([]);
    expect(verdict.repositoryBytes).toBe(36 * MB);
  });

  it("a session left over its bytes with only latest and pinned versions is named", () => {
    const vs = [...file("a", "s1", 1, 9 * MB), ...file("b", "s1", 2, 9 * MB, [1])];
    const verdict = versionsToExpire(vs, { ...POLICY, sessionBytes: 10 * MB });
    expect(verdict.expire).toEqual([]);
    expect(verdict.over).toEqual([{ owner: "s1", bytes: 27 * MB }]);
  });

  it("the repository over its bytes lets the oldest go across sessions", () => {
    const vs = [...file("a", "s1", 3, 9 * MB), ...file("b", "s2", 3, 9 * MB)];
    const verdict = versionsToExpire(vs, { ...POLICY, repositoryBytes: 40 * MB });
    expect(verdict.expire.map((k) => `${k[1]}:${k[3]}`)).toEqual(["a:1", "b:1"]);
    expect(verdict.repositoryBytes).toBe(36 * MB);
  });

  it("a blob shared by two versions counts once and frees nothing until both go", () => {
    const shared = file("a", "s1", 3, 9 * MB).map((v) => ({ ...v, blob: v.key[3] < 3 ? "same" : v.blob }));
    expect(overBounds(shared, POLICY).repositoryBytes).toBe(18 * MB);
    const verdict = versionsToExpire(shared, { ...POLICY, repositoryBytes: 10 * MB });
    expect(verdict.expire.map((k) => k[3])).toEqual([1, 2]);
    expect(verdict.repositoryBytes).toBe(9 * MB);
  });

  it("twenty 50 MB versions of one file end under the default bounds", () => {
    const defaults: RetentionPolicy = {
      versionsPerFile: 20,
      largeFileBytes: 16 * MB,
      largeFileVersions: 2,
      sessionBytes: 256 * MB,
      repositoryBytes: 1024 * MB,
    };
    const vs = file("big.bin", "s1", 20, 50 * MB);
    expect(overBounds(vs, defaults)).toMatchObject({ sessionsOver: [{ owner: "s1", bytes: 1000 * MB }] });
    const verdict = versionsToExpire(vs, defaults);
    expect(verdict.expire).toHaveLength(18);
    expect(verdict.repositoryBytes).toBe(100 * MB);
  });
});
