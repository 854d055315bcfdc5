import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { expandBraces } from "../../src/targets/shell/braces.js";
import { type ListDir, matchGlob } from "../../src/targets/shell/glob.js";
import { extractShellTargets } from "../../src/targets/shell.js";
import { tempDir, writeFiles } from "../helpers/repo.js";
import { check, expectShell, HOME, type ShellCase } from "./shell-check.js";

type Row = ShellCase & { behaviour: string };

describe("globs are expanded against a real directory", () => {
  let dir = "";
  beforeEach(() => {
    dir = tempDir();
    writeFiles(dir, {
      "f.txt": "A",
      "g.txt": "A",
      "we ird.txt": "",
      ".hidden": "",
      "sub/a.md": "",
      "sub/deep/b.md": "",
    });
  });

  it.each<Row>([
    {
      behaviour: "rm -rf ./* lists every entry but dotfiles",
      command: "rm -rf ./*",
      writes: ["./f.txt", "./g.txt", "./sub", "./we ird.txt"],
    },
    { behaviour: "a suffix pattern", command: "rm *.txt", writes: ["f.txt", "g.txt", "we ird.txt"] },
    { behaviour: "dotfiles only for a pattern starting with a dot", command: "rm .*", writes: [".hidden"] },
    { behaviour: "a bracket", command: "rm [fg].txt", writes: ["f.txt", "g.txt"] },
    { behaviour: "a negated bracket", command: "rm [!f]*.txt", writes: ["g.txt", "we ird.txt"] },
    { behaviour: "?", command: "rm ?.txt", writes: ["f.txt", "g.txt"] },
    { behaviour: "a pattern over directories", command: "rm */*.md", writes: ["sub/a.md"] },
    { behaviour: "** is just *", command: "rm **/*.md", writes: ["sub/a.md"] },
    { behaviour: "a trailing slash keeps directories", command: "rm -r */", writes: ["sub/"] },
    {
      behaviour: "a literal name after a glob must exist",
      command: "rm */a.md */nope",
      writes: ["sub/a.md", "*/nope"],
    },
    { behaviour: "no match leaves the word as written", command: "rm nomatch*", writes: ["nomatch*"] },
    {
      behaviour: "quoted glob characters are literal",
      command: "rm '*.txt' \\*.md",
      writes: ["*.txt", "*.md"],
    },
    { behaviour: "after cd, in that directory", command: "cd sub && rm *", writes: ["sub/a.md", "sub/deep"] },
    {
      behaviour: "a glob in a variable is expanded where it is used unquoted",
      command: "F='*.txt'; rm $F; rm \"$F\"",
      writes: ["f.txt", "g.txt", "we ird.txt", "*.txt"],
    },
    { behaviour: "a glob in a redirection", command: "echo B > f*", writes: ["f.txt"] },
    {
      behaviour: "a for loop over a glob",
      command: 'for f in *.txt; do mv "$f" "$f.bak"; done',
      writes: ["f.txt", "f.txt.bak", "g.txt", "g.txt.bak", "we ird.txt", "we ird.txt.bak"],
    },
  ])("$behaviour", async (c) => {
    await expectShell(c, { cwd: dir });
  });

  it("expands an absolute pattern", async () => {
    await expectShell(
      { command: `rm ${dir}/s*/a.md`, writes: [join(dir, "sub/a.md")] },
      { cwd: "/elsewhere" },
    );
  });

  it.each<Row>([
    { behaviour: "in a directory that cannot be told", command: 'cd "$D" && rm *', opaque: true },
    { behaviour: "after shopt changes what globs match", command: "shopt -s dotglob; rm *", opaque: true },
    { behaviour: "with GLOBIGNORE set", command: "GLOBIGNORE=f.txt; rm *.txt", opaque: true },
  ])("a glob is unknown $behaviour", async (c) => {
    await expectShell(c, { cwd: dir });
  });

  it("leaves a glob unknown without the caller's directory", async () => {
    await check({ command: "rm *.txt", opaque: true });
  });

  it("lists directories only for words that are globs", async () => {
    const listed: string[] = [];
    const listDir: ListDir = (path) => {
      listed.push(path);
      return readdirSync(path);
    };
    await extractShellTargets("rm a 'b*' c; echo x > d; F=e; touch $F", { home: HOME, cwd: dir, listDir });
    expect(listed).toEqual([]);
    await extractShellTargets("rm *.txt", { home: HOME, cwd: dir, listDir });
    expect(listed).toEqual([dir]);
  });

  it("gives up on a glob past the limit of names", async () => {
    const found = await extractShellTargets("rm *", { home: HOME, cwd: dir, globLimit: 3 });
    expect(found).toMatchObject({ writes: [], opaque: true });
  });
});

describe("brace expansion", () => {
  it.each<Row>([
    { behaviour: "a list", command: "rm {a,b}.txt", writes: ["a.txt", "b.txt"] },
    { behaviour: "a list in a redirection", command: "echo x > {a,b}.txt", writes: ["a.txt", "b.txt"] },
    { behaviour: "nested lists", command: "touch x{a,{b,c}}", writes: ["xa", "xb", "xc"] },
    { behaviour: "two lists", command: "touch {a,b}{1,2}", writes: ["a1", "a2", "b1", "b2"] },
    { behaviour: "after a quoted part", command: 'touch "q"{c,d}', writes: ["qc", "qd"] },
    { behaviour: "a number sequence", command: "rm {1..3}.log", writes: ["1.log", "2.log", "3.log"] },
    { behaviour: "a padded sequence", command: "rm f{08..10}", writes: ["f08", "f09", "f10"] },
    { behaviour: "a sequence with a step", command: "rm {10..0..5}", writes: ["10", "5", "0"] },
    { behaviour: "a letter sequence", command: "rm {a..c}", writes: ["a", "b", "c"] },
    { behaviour: "no comma is literal", command: "rm {x} {} stash@{0}", writes: ["{x}", "{}", "stash@{0}"] },
    { behaviour: "quoted braces are literal", command: "rm '{a,b}' \\{c,d\\}", writes: ["{a,b}", "{c,d}"] },
    { behaviour: "a list through a quoted part is unknown", command: 'rm {a,"b c"}', opaque: true },
  ])("$behaviour", check);

  it("gives up past the limit of words", () => {
    expect(expandBraces("{1..100000}", 10_000)).toBeNull();
    expect(expandBraces("{1..100}{1..100}{1..100}", 10_000)).toBeNull();
    expect(expandBraces("{1..3}", 10_000)).toEqual(["1", "2", "3"]);
  });
});

describe("glob matching", () => {
  const tree: Record<string, string[]> = {
    "/d": ["a1", "b2", "C3", ".x", "n\nl", "br]"],
  };
  const list: ListDir = (path) => tree[path] ?? null;
  const match = (pattern: string) => matchGlob(pattern, "/d", list, { left: 100 });

  it.each([
    ["[[:digit:]]*", []],
    ["*[[:digit:]]", ["C3", "a1", "b2"]],
    ["[[:upper:]]?", ["C3"]],
    ["[a-b]?", ["a1", "b2"]],
    ["[^a]?", ["C3", "b2"]],
    ["n?l", ["n\nl"]],
    ["br[]]", ["br]"]],
    ["\\a1", ["a1"]],
    ["*", ["C3", "a1", "b2", "br]", "n\nl"]],
    [".*", [".x"]],
    ["zz*", []],
  ])("%s matches %j", (pattern, names) => {
    expect(match(pattern)).toEqual(names);
  });

  it("cannot read an unknown character class", () => {
    expect(match("[[:word:]]")).toBeNull();
  });
});
