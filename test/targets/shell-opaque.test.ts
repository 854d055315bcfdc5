/**
 * What the reader cannot be sure of is opaque (issue 25, deliverable 3): where `cd` goes when it
 * depends on HOME, CDPATH, OLDPWD, `cdable_vars` or anything not static, and writes through links
 * the command makes. Each spelling is either resolved exactly (its writes named, not opaque) or
 * marked opaque; a hard link's source is a write.
 */
import { describe, it } from "vitest";
import { expectShell, HOME, type ShellCase } from "./shell-check.js";

type Row = ShellCase & { behaviour: string; env?: Record<string, string> };
const run = async ({ env, ...c }: Row) => {
  await expectShell(c, { cwd: "/repo", env: env ?? {} });
};

describe("cd is followed only where it is certain", () => {
  it.each<Row>([
    { behaviour: "a plain relative cd", command: "cd src && echo x > t.txt", writes: ["src/t.txt"] },
    {
      behaviour: "cd ./ skips CDPATH",
      command: "cd ./src && echo x > t.txt",
      writes: ["src/t.txt"],
      env: { CDPATH: "/elsewhere" },
    },
    { behaviour: "cd ~", command: "cd ~ && echo x > t.txt", writes: [`${HOME}/t.txt`] },
    { behaviour: "cd alone goes home", command: "cd; echo x > t.txt", writes: [`${HOME}/t.txt`] },
    {
      behaviour: "cd alone after HOME=…",
      command: "HOME=$PWD/src; cd; echo x > t.txt",
      writes: ["/repo/src/t.txt"],
    },
    { behaviour: "cd ~ after HOME=…", command: "HOME=/x; cd ~/y && echo x > t.txt", writes: ["/x/y/t.txt"] },
    { behaviour: "~ in a path after HOME=…", command: "HOME=/x; echo x > ~/t.txt", writes: ["/x/t.txt"] },
    {
      behaviour: "HOME=… as cd's own environment",
      command: "HOME=/x cd && echo x > t.txt",
      writes: ["/x/t.txt"],
    },
    { behaviour: "HOME unknown", command: 'HOME="$1"; cd && echo x > t.txt', opaque: true },
    { behaviour: "HOME unset", command: "unset HOME; cd ~ && echo x > t.txt", opaque: true },
    { behaviour: "HOME empty", command: "HOME= cd && echo x > t.txt", opaque: true },
    { behaviour: "cd ~user", command: "cd ~bob && echo x > t.txt", opaque: true },
    { behaviour: 'cd "$X"', command: 'cd "$X" && echo x > t.txt', opaque: true },
    { behaviour: "cd - (OLDPWD)", command: "cd - && echo x > t.txt", opaque: true },
    { behaviour: "cd -P through ..", command: "cd -P link/.. && echo x > t.txt", opaque: true },
    {
      behaviour: "cd -L through .. (logical)",
      command: "cd -L link/.. && echo x > t.txt",
      writes: ["t.txt"],
    },
    {
      behaviour: "CDPATH that is the current directory",
      command: "export CDPATH=$PWD; cd src && echo x > t.txt",
      writes: ["src/t.txt"],
    },
    {
      behaviour: "CDPATH=. as cd's environment",
      command: "CDPATH=. cd src && echo x > t.txt",
      writes: ["src/t.txt"],
    },
    {
      behaviour: "CDPATH=:. (empty entries)",
      command: "CDPATH=:.: cd src && echo x > t.txt",
      writes: ["src/t.txt"],
    },
    {
      behaviour: "CDPATH elsewhere",
      command: "export CDPATH=$PWD/lib; cd src && echo x > t.txt",
      opaque: true,
    },
    { behaviour: "CDPATH unknown", command: "CDPATH=$(pwd)/..; cd src && echo x > t.txt", opaque: true },
    {
      behaviour: "CDPATH inherited",
      command: "cd src && echo x > t.txt",
      env: { CDPATH: "/elsewhere" },
      opaque: true,
    },
    {
      behaviour: "CDPATH inherited, then cleared",
      command: "CDPATH=; cd src && echo x > t.txt",
      env: { CDPATH: "/x" },
      writes: ["src/t.txt"],
    },
    {
      behaviour: "CDPATH reaches bash -c",
      command: "export CDPATH=/x; bash -c 'cd src && echo x > t.txt'",
      opaque: true,
    },
    {
      behaviour: "cd in a bash -c with no CDPATH",
      command: "bash -c 'cd src && echo x > t.txt'",
      writes: ["src/t.txt"],
    },
    {
      behaviour: "shopt -s cdable_vars",
      command: "shopt -s cdable_vars; cd v && echo x > t.txt",
      opaque: true,
    },
    {
      behaviour: "shopt with an unknown option",
      command: 'shopt -s "$O"; cd v && echo x > t.txt',
      opaque: true,
    },
    {
      behaviour: "cdable_vars inherited",
      command: "cd v && echo x > t.txt",
      env: { BASHOPTS: "checkwinsize:cdable_vars" },
      opaque: true,
    },
    {
      behaviour: "bash -O cdable_vars",
      command: "bash -O cdable_vars -c 'cd v && echo x > t.txt'",
      opaque: true,
    },
    {
      behaviour: "cdable_vars leaves absolute cd alone",
      command: "shopt -s cdable_vars; cd /x && echo y > t.txt",
      writes: ["/x/t.txt"],
    },
    {
      behaviour: ".. after cd is left to the disk (the directory may be a symlink)",
      command: "cd d && echo x > ../t.txt",
      writes: ["d/../t.txt"],
    },
    { behaviour: ".. in cd itself is logical", command: "cd d/.. && echo x > t.txt", writes: ["t.txt"] },
    { behaviour: "set -P makes cd .. physical", command: "set -P; cd d/.. && echo x > t.txt", opaque: true },
    { behaviour: "set -o physical", command: "set -o physical; cd d/.. && echo x > t.txt", opaque: true },
    {
      behaviour: "cd -L after set -P is logical",
      command: "set -P; cd -L d/.. && echo x > t.txt",
      writes: ["t.txt"],
    },
    { behaviour: "the last of -L and -P wins", command: "cd -LP d/.. && echo x > t.txt", opaque: true },
    {
      behaviour: "set -euo pipefail changes no cd",
      command: "set -euo pipefail; cd d/.. && echo x > t.txt",
      writes: ["t.txt"],
    },
    {
      behaviour: "nohup cd runs a program: the shell stays",
      command: "nohup cd src; echo x > t.txt",
      writes: ["t.txt"],
    },
    {
      behaviour: "env cd runs a program: the shell stays",
      command: "env cd src; echo x > t.txt",
      writes: ["t.txt"],
    },
    {
      behaviour: "timeout cd runs a program",
      command: "timeout 5 cd src; echo x > t.txt",
      writes: ["t.txt"],
    },
    {
      behaviour: "builtin cd is the shell's",
      command: "builtin cd src && echo x > t.txt",
      writes: ["src/t.txt"],
    },
    {
      behaviour: "command cd is the shell's",
      command: "command cd src && echo x > t.txt",
      writes: ["src/t.txt"],
    },
    {
      behaviour: "pushd -n changes only the stack",
      command: "pushd -n src; echo x > t.txt",
      writes: ["t.txt"],
    },
    { behaviour: "popd -n changes only the stack", command: "popd -n; echo x > t.txt", writes: ["t.txt"] },
    { behaviour: "pushd DIR", command: "pushd src && echo x > t.txt", writes: ["src/t.txt"] },
    {
      behaviour: "pushd DIR through CDPATH",
      command: "pushd src && echo x > t.txt",
      env: { CDPATH: "/x" },
      opaque: true,
    },
    { behaviour: "pushd alone", command: "pushd && echo x > t.txt", opaque: true },
    { behaviour: "pushd +1", command: "pushd +1 && echo x > t.txt", opaque: true },
    { behaviour: "popd", command: "pushd src; popd; echo x > t.txt", opaque: true },
  ])("$behaviour: $command", run);
});

describe("links the command makes", () => {
  it.each<Row>([
    { behaviour: "ln -s alone names the link", command: "ln -s f.txt l", writes: ["l"] },
    {
      behaviour: "ln -s then a write through it",
      command: "ln -s f.txt l && echo x > l",
      writes: ["l"],
      opaque: true,
    },
    { behaviour: "ln -sf", command: "ln -sf f.txt l; echo x >> l", writes: ["l"], opaque: true },
    {
      behaviour: "a symlink to a directory, then a write inside",
      command: "ln -s src d && echo x > d/f.txt",
      writes: ["d", "d/f.txt"],
      opaque: true,
    },
    {
      behaviour: "--symbolic spelled short",
      command: "ln --sym f.txt l && cp a l",
      writes: ["l"],
      opaque: true,
    },
    {
      behaviour: "a write before the link (a loop may repeat it)",
      command: "while true; do echo x > l; ln -sf f.txt l; done",
      writes: ["l"],
      opaque: true,
    },
    {
      behaviour: "a link made in a subshell",
      command: "(ln -s f.txt l); echo x > l",
      writes: ["l"],
      opaque: true,
    },
    {
      behaviour: "two link-making commands",
      command: "ln -s f.txt l && ln l h",
      writes: ["l", "h"],
      opaque: true,
    },
    {
      behaviour: "ln -s into a directory with -t",
      command: "ln -s -t d f.txt && sed -i s/a/b/ d/f.txt",
      writes: ["d", "d/f.txt"],
      opaque: true,
    },
    {
      behaviour: "a write to /dev/null beside a link is no write",
      command: "ln -s f.txt l 2>/dev/null",
      writes: ["l"],
    },
    { behaviour: "ln (hard) writes its source", command: "ln f.txt h", writes: ["h", "f.txt"] },
    {
      behaviour: "ln alone links into the current directory",
      command: "ln ../x/f.txt",
      writes: ["f.txt", "../x/f.txt"],
    },
    { behaviour: "ln -T", command: "ln -T f.txt h", writes: ["h", "f.txt"] },
    { behaviour: "ln -t DIR with sources", command: "ln -t d a b", writes: ["d", "a", "b"] },
    { behaviour: "ln --s is ambiguous: counted as hard", command: "ln --s f.txt h", writes: ["h", "f.txt"] },
    { behaviour: "link a b", command: "link a b", writes: ["a", "b"] },
    { behaviour: "cp -l writes its sources", command: "cp -l f.txt h", writes: ["h", "f.txt"] },
    { behaviour: "cp --link", command: "cp --link f.txt d/", writes: ["d/", "f.txt"] },
    { behaviour: "cp -al", command: "cp -al src copy", writes: ["copy", "src"] },
    {
      behaviour: "cp -s then a write through it",
      command: "cp -s f.txt l && echo x > l",
      writes: ["l"],
      opaque: true,
    },
    { behaviour: "cp -a keeps symlinks", command: "cp -a l m && echo x > m", writes: ["m"], opaque: true },
    {
      behaviour: "cp -r keeps symlinks inside",
      command: "cp -r a b && echo x > b/l",
      writes: ["b", "b/l"],
      opaque: true,
    },
    {
      behaviour: "cp --preserve=links",
      command: "cp --preserve=links a b && echo x > b",
      writes: ["b"],
      opaque: true,
    },
    {
      behaviour: "a plain cp then a write is still read",
      command: "cp a b && sed -i s/x/y/ b",
      writes: ["b"],
    },
    {
      behaviour: "a link after cd lands in that directory",
      command: "cd src && ln f.txt h",
      writes: ["src/h", "src/f.txt"],
    },
  ])("$behaviour: $command", run);
});
