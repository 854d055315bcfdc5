import { describe, expect, it } from "vitest";
import { count, flag, lastOf, optionSpec, parseArgv, values } from "../../../src/core/git/argv.js";
import { canonicalKey, parseGlobals } from "../../../src/core/git/globals.js";
import {
  parseCleanDryRun,
  parseConfigZ,
  parseNumstatZ,
  parsePathspecFile,
  parseRevParse,
  topRelative,
  unquoteC,
} from "../../../src/core/git/output.js";

describe("reading a subcommand's options as git does", () => {
  const spec = optionSpec("force/f message/m= gpg-sign/S? keep-index/k no-verify/n -d include-untracked/u");
  const parse = (...args: string[]) => {
    const r = parseArgv(args, spec);
    if (!r.ok) throw new Error(r.reason);
    return r.argv;
  };

  it("splits bundled short flags, taking the rest of the word or the next one as a value", () => {
    const a = parse("-fkm", "msg", "-mother", "x");
    expect(flag(a, "force")).toBe(true);
    expect(flag(a, "keep-index")).toBe(true);
    expect(values(a, "message")).toEqual(["msg", "other"]);
    expect(a.operands).toEqual(["x"]);
  });

  it("reads --opt=value, --opt value, optional inline values and negations", () => {
    const a = parse("--message=a=b", "--message", "c", "--gpg-sign", "-Skey", "--no-force", "--verify");
    expect(values(a, "message")).toEqual(["a=b", "c"]);
    expect(values(a, "gpg-sign")).toEqual(["key"]);
    expect(flag(a, "force")).toBe(false);
    expect(flag(a, "no-verify")).toBe(false);
  });

  it("takes unique abbreviations and refuses ambiguous or unknown ones", () => {
    expect(flag(parse("--keep"), "keep-index")).toBe(true);
    expect(flag(parse("--include-u"), "include-untracked")).toBe(true);
    expect(parseArgv(["--no"], spec)).toMatchObject({ ok: false });
    expect(parseArgv(["--bogus"], spec)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("--bogus"),
    });
    expect(parseArgv(["-z"], spec)).toMatchObject({ ok: false, reason: expect.stringContaining("-z") });
    expect(parseArgv(["--force=yes"], spec)).toMatchObject({ ok: false });
    expect(parseArgv(["-m"], spec)).toMatchObject({ ok: false, reason: expect.stringContaining("value") });
  });

  it("keeps operands apart from what follows -- and after --end-of-options", () => {
    const a = parse("a", "-f", "--end-of-options", "-b", "--", "-c", "--");
    expect(a.operands).toEqual(["a", "-b"]);
    expect(a.afterDashDash).toEqual(["-c", "--"]);
    expect(parse("-").operands).toEqual(["-"]);
  });

  it("counts repeats and tells which of several flags came last", () => {
    const a = parse("-ff", "-d", "-f");
    expect(count(a, "force")).toBe(3);
    expect(lastOf(a, "force", "-d")).toBe("force");
  });
});

describe("reading git's global options", () => {
  it("collects -c, pathspec options and -C, and stops at the subcommand", () => {
    expect(
      parseGlobals(["-c", "a.B=1", "--no-pager", "--icase-pathspecs", "-C", "d", "stash", "-c", "x"]),
    ).toEqual({
      ok: true,
      globals: {
        configArgs: ["-c", "a.B=1"],
        config: [{ key: "a.b", value: "1" }],
        pathspecArgs: ["--icase-pathspecs"],
        chdir: ["d"],
      },
      rest: ["stash", "-c", "x"],
    });
  });

  it("compares section and name without case but keeps a subsection's", () => {
    expect(canonicalKey("Core.HooksPath")).toBe("core.hookspath");
    expect(canonicalKey("Branch.Main.Rebase")).toBe("branch.Main.rebase");
  });

  it("knows options that print and exit, passes the repository's location on to git, and refuses what runs elsewhere", () => {
    expect(parseGlobals(["--version"])).toEqual({ ok: "exits" });
    expect(parseGlobals(["--exec-path"])).toEqual({ ok: "exits" });
    // Which repository a command acts on is asked of git with these words (decision 0026).
    expect(parseGlobals(["--git-dir=x", "status"])).toMatchObject({
      ok: true,
      globals: { configArgs: ["--git-dir=x"] },
      rest: ["status"],
    });
    expect(parseGlobals(["--exec-path=/x", "status"])).toMatchObject({ ok: false });
  });
});

describe("reading what the queries print", () => {
  it("reads numstat records, renames giving both paths", () => {
    expect(parseNumstatZ("1\t0\ta b\0-\t-\tbin\0" + "2\t1\t\0old\0new\0")).toEqual([
      "a b",
      "bin",
      "old",
      "new",
    ]);
  });

  const quoted: [string, string][] = [
    ["plain", "plain"],
    ['"a\\nb"', "a\nb"],
    ['"q\\"uote"', 'q"uote'],
    ['"back\\\\slash"', "back\\slash"],
    ['"tab\\there"', "tab\there"],
    ['"\\303\\251t\\303\\251"', "été"],
    ['"😀\\n"', "😀\n"],
  ];
  for (const [input, name] of quoted) {
    it(`unquotes ${input}`, () => expect(unquoteC(input)).toBe(name));
  }

  it("reads a clean dry run relative to the command's directory", () => {
    const out =
      'Would remove a\nWould remove "odd\\nname"\nWould remove ../up/\nWould skip repository nested/\n';
    expect(parseCleanDryRun(out, "sub/")).toEqual(["sub/a", "sub/odd\nname", "up/"]);
    expect(parseCleanDryRun("Would remove ../../out\n", "sub/")).toEqual([]);
  });

  it("makes directory-relative paths top-relative, or null outside the tree", () => {
    expect(topRelative("sub/", "../a")).toBe("a");
    expect(topRelative("", "./d/")).toBe("d");
    expect(topRelative("", "..")).toBeNull();
    expect(topRelative("sub/", "..")).toBe("");
  });

  it("reads rev-parse: top, prefix, and whether the name or a remote branch resolved", () => {
    expect(parseRevParse("/r\nsub/\nabc\n", 0, true)).toEqual({
      top: "/r",
      prefix: "sub/",
      verified: true,
      remotes: [],
    });
    expect(parseRevParse("/r\n\nrefs/remotes/origin/x\n", 1, true)).toEqual({
      top: "/r",
      prefix: "",
      verified: false,
      remotes: ["refs/remotes/origin/x"],
    });
  });

  it("reads config records, a key alone meaning true", () => {
    expect(parseConfigZ("pull.rebase\nmerges\0rebase.autostash\0")).toEqual(
      new Map([
        ["pull.rebase", "merges"],
        ["rebase.autostash", "true"],
      ]),
    );
  });

  it("reads pathspec files by line (CRLF, quoted) or by NUL", () => {
    expect(parsePathspecFile('a\r\n"b\\tc"\n\nd e\n', false)).toEqual(["a", "b\tc", "d e"]);
    expect(parsePathspecFile("a\nb\0c\0", true)).toEqual(["a\nb", "c"]);
  });
});
