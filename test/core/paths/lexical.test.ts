import { describe, expect, it } from "vitest";
import {
  absoluteTarget,
  isInside,
  isPlainKey,
  lexicalTarget,
  relativeKey,
} from "../../../src/core/paths/lexical.js";

const CWD = "/home/u/proj/src";

describe("lexicalTarget", () => {
  it.each([
    ["a relative file against cwd", "main.ts", "/home/u/proj/src/main.ts"],
    ["a relative path with ./", "./lib/x.ts", "/home/u/proj/src/lib/x.ts"],
    ["a relative path climbing with ..", "../README.md", "/home/u/proj/README.md"],
    ["a relative path leaving the project", "../../other/x.ts", "/home/u/other/x.ts"],
    ["an absolute path", "/etc/hosts", "/etc/hosts"],
    ["an absolute path with . and ..", "/a/./b/../c", "/a/c"],
    ["duplicate and trailing slashes", "/a//b///c/", "/a/b/c"],
    [".. above / stays at /", "/../../x", "/x"],
    ["cwd itself", ".", "/home/u/proj/src"],
    ["a leading double slash as POSIX", "//tmp/x", "/tmp/x"],
    ["a wsl$ UNC path", "\\\\wsl$\\Ubuntu\\home\\u\\x.ts", "/home/u/x.ts"],
    ["a wsl.localhost UNC path", "\\\\wsl.localhost\\Ubuntu\\home\\u\\x.ts", "/home/u/x.ts"],
    ["a forward-slash wsl$ UNC path", "//wsl$/Ubuntu/home/u/x.ts", "/home/u/x.ts"],
    ["a forward-slash wsl.localhost UNC path", "//wsl.localhost/Ubuntu/home/u", "/home/u"],
    ["a mixed-separator UNC path", "\\\\wsl$/Ubuntu\\home/u", "/home/u"],
    ["a UNC host in upper case", "\\\\WSL$\\Ubuntu\\tmp", "/tmp"],
    ["the distribution root", "\\\\wsl$\\Ubuntu", "/"],
    ["UNC .. that cannot climb above the distribution", "\\\\wsl$\\Ubuntu\\..\\..\\etc", "/etc"],
    ["an upper-case drive path", "C:\\Users\\x\\file.txt", "/mnt/c/Users/x/file.txt"],
    ["a lower-case drive path with forward slashes", "c:/Users/x", "/mnt/c/Users/x"],
    ["a bare drive", "D:", "/mnt/d"],
    ["drive .. that cannot climb above the drive", "C:\\..\\x", "/mnt/c/x"],
    ["a long-path drive spelling", "\\\\?\\C:\\x\\y", "/mnt/c/x/y"],
    ["a long-path UNC spelling", "\\\\?\\UNC\\wsl$\\Ubuntu\\home", "/home"],
    ["spaces", "my dir/my file.txt", "/home/u/proj/src/my dir/my file.txt"],
    ["quotes", `it's "quoted".txt`, `/home/u/proj/src/it's "quoted".txt`],
    ["a newline", "line\nbreak.txt", "/home/u/proj/src/line\nbreak.txt"],
    ["non-ASCII", "données/日本.txt", "/home/u/proj/src/données/日本.txt"],
    ["a leading dash", "-rf", "/home/u/proj/src/-rf"],
    ["a literal tilde (the shell expands it, not us)", "~/x", "/home/u/proj/src/~/x"],
    ["a backslash inside a POSIX name", "a\\b", "/home/u/proj/src/a\\b"],
    ["surrounding whitespace kept", " x ", "/home/u/proj/src/ x "],
  ])("normalizes %s", (_name, raw, expected) => {
    expect(lexicalTarget(raw, CWD)).toEqual({ ok: true, path: expected });
  });

  it("resolves relative paths against a Windows-spelled cwd", () => {
    expect(lexicalTarget("x.ts", "\\\\wsl$\\Ubuntu\\home\\u")).toEqual({ ok: true, path: "/home/u/x.ts" });
  });

  it("maps drives under a custom automount root", () => {
    expect(lexicalTarget("C:\\x", CWD, { driveRoot: "/win" })).toEqual({ ok: true, path: "/win/c/x" });
  });

  it("accepts a UNC path into the distribution we run in, ignoring case", () => {
    expect(lexicalTarget("\\\\wsl$\\ubuntu\\tmp", CWD, { wslDistro: "Ubuntu" })).toEqual({
      ok: true,
      path: "/tmp",
    });
  });

  it.each([
    ["an empty path", "", /empty/],
    ["a NUL byte", "a\0b", /NUL/],
    ["a non-WSL UNC share", "\\\\server\\share\\x", /network path .*server/],
    ["a UNC path with no distribution", "\\\\wsl$\\", /no WSL distribution/],
    ["a drive-relative path", "C:foo\\bar", /relative to the current directory of drive C:/],
    ["an unmappable device path", "\\\\?\\Volume{abc}\\x", /device path/],
  ])("rejects %s", (_name, raw, reason) => {
    const res = lexicalTarget(raw, CWD);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.reason).toMatch(reason);
  });

  it("rejects a UNC path into another distribution, naming both", () => {
    const res = lexicalTarget("\\\\wsl.localhost\\Debian\\home\\u", CWD, { wslDistro: "Ubuntu" });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.reason).toContain('"Debian"');
      expect(res.reason).toContain('"Ubuntu"');
    }
  });

  it("rejects a relative path when cwd is not absolute", () => {
    const res = lexicalTarget("x", "relative/cwd");
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.reason).toMatch(/not absolute/);
  });

  it("rejects a cwd with a NUL byte", () => {
    expect(lexicalTarget("x", "/a\0b").ok).toBe(false);
  });
});

describe("absoluteTarget", () => {
  it("keeps POSIX .. so a symlink's parent can be resolved physically", () => {
    expect(absoluteTarget("link/../x", "/r")).toEqual({ ok: true, path: "/r/link/../x" });
  });
});

describe("isPlainKey", () => {
  it.each<[string, boolean]>([
    ["src/a.ts", true],
    ["C:notes.txt", true],
    ["dir with space/-dash", true],
    ["a\\b", true],
    [".hidden/x", true],
    ["..dots", true],
    ["", false],
    [".", false],
    ["../beside", false],
    ["a/../b", false],
    ["a/./b", false],
    ["/abs", false],
    ["a//b", false],
    ["trailing/", false],
    ["nul\0", false],
  ])("%j → %s", (key, plain) => {
    expect(isPlainKey(key)).toBe(plain);
  });
});

describe("relativeKey", () => {
  it.each([
    ["/r", "/r/src/a.ts", "src/a.ts"],
    ["/r", "/r", "."],
    ["/r", "/other/x", "../other/x"],
    ["/r/a", "/r/b/c", "../b/c"],
    ["/r/sub", "/r", ".."],
    ["/", "/x/y", "x/y"],
    ["/r/", "/r//a/", "a"],
    ["/r", "/r/dir with space/-x\n", "dir with space/-x\n"],
  ])("keys %s → %s as %s", (root, abs, key) => {
    expect(relativeKey(root, abs)).toBe(key);
  });
});

describe("isInside", () => {
  it.each([
    ["/a/b", "/a/b/c", true],
    ["/a/b", "/a/b", true],
    ["/a/b", "/a/bc", false],
    ["/a/b", "/a", false],
    ["/a/b/", "/a/b/c", true],
    ["/", "/anything", true],
    ["/a/b", "/a/b/../c", false],
  ])("isInside(%s, %s) is %s", (parent, child, expected) => {
    expect(isInside(parent, child)).toBe(expected);
  });
});
