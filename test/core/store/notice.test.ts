import { describe, expect, it } from "vitest";
import { asksForHelp } from "../../../src/core/help-flag.js";
import type { Printer } from "../../../src/core/printed.js";
import {
  noticeText,
  STORE_CONSEQUENCE,
  type StoreProblem,
  storeNotice,
} from "../../../src/core/store/notice.js";

const FILE = "/r/.git/tandem/state.db";
const P: Printer = { reader: "person", launcher: "npx tandem" };

describe("the one notice of a store problem", () => {
  it.each<[StoreProblem, string | undefined, RegExp, RegExp]>([
    [
      "readonly",
      "/r/.git/tandem",
      /is read-only \(d\)$/,
      /^make \/r\/\.git\/tandem writable .*`chmod u\+w \/r\/\.git\/tandem`.*`chattr -i /,
    ],
    ["readonly", FILE, /is read-only/, /^make \/r\/\.git\/tandem\/state\.db writable .*`chmod u\+w /],
    ["readonly", undefined, /is read-only/, /^make \/r\/.*state\.db and its directory writable by this user/],
    ["permission", undefined, /cannot be opened/, /writable by this user/],
    [
      "corrupt",
      undefined,
      /is corrupt/,
      /^run `npx tandem doctor --reset`: it moves the damaged store aside/,
    ],
    [
      "missing",
      undefined,
      /has disappeared/,
      /^put the deleted state\.db back .*`npx tandem doctor --reset`/,
    ],
    ["replaced", undefined, /was replaced by a different store/, /^put this repository's own state\.db back/],
    [
      "locked",
      undefined,
      /is locked by another process/,
      /^find the process holding it \(`fuser \/r\/.*state\.db`\)/,
    ],
    ["unavailable", undefined, /could not be read or written/, /^run `npx tandem doctor`/],
  ])("%s (unwritable: %s) says what and how to fix it", (problem, blocked, what, fix) => {
    const n = storeNotice(problem, FILE, "d", P, blocked);
    expect(n.what.startsWith(`${FILE} `)).toBe(true);
    expect(n.what).toMatch(what);
    expect(n.fix).toMatch(fix);
  });

  it("quotes a path with spaces in the commands it prints", () => {
    const n = storeNotice("readonly", "/a b/state.db", "EACCES on /a b", P, "/a b");
    expect(n.fix).toContain("`chmod u+w '/a b'`");
    expect(storeNotice("locked", "/a b/state.db", "d", P).fix).toContain("`fuser '/a b/state.db'`");
  });

  it("reads as one paragraph: what, what it stops, the fix", () => {
    const n = storeNotice("corrupt", FILE, "not an SQLite database", P);
    expect(noticeText(n)).toBe(`Tandem's store ${n.what}; ${STORE_CONSEQUENCE}. Fix: ${n.fix}.`);
  });
});

describe("whether a command line asks for help", () => {
  it.each<[string[], boolean]>([
    [["task", "--help"], true],
    [["release", "-h"], true],
    [["--help"], true],
    [["--root", "/r", "status", "--help"], true],
    [["task", "fix the --help text"], false],
    [["release", "--", "-h"], false],
    [["status"], false],
    [[], false],
  ])("%j → %s", (argv, expected) => {
    expect(asksForHelp(argv)).toBe(expected);
  });
});
