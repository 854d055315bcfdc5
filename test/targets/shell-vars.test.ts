import { describe, it } from "vitest";
import { expectShell, HOME, type ShellCase } from "./shell-check.js";

type Row = ShellCase & { behaviour: string };
const run = async (c: Row) => {
  await expectShell(c, { cwd: "/repo" });
};

describe("variables the script assigns are followed", () => {
  it.each<Row>([
    { behaviour: "$F in a redirection", command: "F=f.txt; echo B > $F", writes: ["f.txt"] },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    { behaviour: '${F} and "$F"', command: 'F=f.txt; rm ${F} "$F"', writes: ["f.txt"] },
    { behaviour: "text around a quoted variable", command: 'F=f; cp a "$F.bak"', writes: ["f.bak"] },
    { behaviour: "export F=…", command: "export F=f.txt; rm $F", writes: ["f.txt"] },
    {
      behaviour: "declare and local-free readonly",
      command: "declare G=g; readonly H=h; rm $G $H",
      writes: ["g", "h"],
    },
    { behaviour: "one assignment reading the one before", command: "F=a G=$F/b; rm $G", writes: ["a/b"] },
    { behaviour: "+= appends", command: "F=a; F+=.txt; rm $F", writes: ["a.txt"] },
    { behaviour: "an empty value vanishes unquoted", command: "F=; touch x$F $F", writes: ["x"] },
    { behaviour: "an unquoted value splits at blanks", command: "F='a b'; rm $F", writes: ["a", "b"] },
    { behaviour: "a quoted value does not split", command: "F='a b'; rm \"$F\"", writes: ["a b"] },
    {
      behaviour: "~ in a value is the home directory",
      command: "D=~/notes; rm $D/x",
      writes: [`${HOME}/notes/x`],
    },
    { behaviour: "$HOME", command: "rm $HOME/x", writes: [`${HOME}/x`] },
    { behaviour: "$PWD is the caller's directory", command: "rm $PWD/x", writes: ["/repo/x"] },
    { behaviour: "$PWD follows cd", command: 'cd sub && rm "$PWD/x"', writes: ["/repo/sub/x"] },
    { behaviour: "a variable used as cd's directory", command: "D=sub; cd $D && touch f", writes: ["sub/f"] },
    {
      behaviour: "a prefix assignment does not reach the command's own words",
      command: "F=x; F=y rm $F",
      writes: ["x"],
    },
    { behaviour: "a prefix assignment reaches bash -c", command: "F=x bash -c 'rm $F'", writes: ["x"] },
    {
      behaviour: "an exported variable reaches bash -c",
      command: "export F=x; bash -c 'rm $F'",
      writes: ["x"],
    },
    {
      behaviour: "export NAME exports a set variable",
      command: "F=x; export F; sh -c 'rm $F'",
      writes: ["x"],
    },
    { behaviour: "env NAME=… reaches its command", command: "F=a; env F=b bash -c 'rm $F'", writes: ["b"] },
    { behaviour: "assignments inside bash -c", command: "bash -c 'F=in; rm $F'", writes: ["in"] },
    {
      behaviour: "a variable expanded into a bash -c script",
      command: 'F=f; bash -c "rm $F"',
      writes: ["f"],
    },
    {
      behaviour: "each item of a for loop",
      command: 'for f in a b; do rm "$f.bak"; done',
      writes: ["a.bak", "b.bak"],
    },
    {
      behaviour: "a function with the variables of each call",
      command: 'f() { rm "$X"; }; X=a; f; X=b; f',
      writes: ["a", "b"],
    },
    {
      behaviour: "a function's local variable does not outlive it",
      command: "f() { local F=in; rm $F; }; F=out; f; rm $F",
      writes: ["in", "out"],
    },
    {
      behaviour: "a function's cd stays after it",
      command: "f() { cd sub; }; f; touch x",
      writes: ["sub/x"],
    },
    {
      behaviour: "local outside a function assigns nothing",
      command: "F=a; local F=b; rm $F",
      writes: ["a"],
    },
    {
      behaviour: "both branches of an if agreeing",
      command: "if [ -f x ]; then F=a; else F=a; fi; rm $F",
      writes: ["a"],
    },
    {
      behaviour: "a chain that stops early still lands in d",
      command: "mkdir d && cd d && touch f",
      writes: ["d", "d/f"],
    },
    { behaviour: "cd || exit keeps the directory", command: "cd sub || exit 1; touch f", writes: ["sub/f"] },
  ])("$behaviour", run);
});

describe("variables that cannot be told are unknown", () => {
  it.each<Row>([
    { behaviour: "a variable never assigned", command: "rm $F", opaque: true },
    { behaviour: "a prefix assignment alone", command: "F=x rm $F", opaque: true },
    { behaviour: "a value from a command", command: "F=$(mktemp); rm $F", opaque: true },
    { behaviour: "an assignment in a subshell", command: "(F=x); rm $F", opaque: true },
    { behaviour: "an assignment in a pipeline", command: "F=x | cat; rm $F", opaque: true },
    { behaviour: "an assignment in a background job", command: "F=x & rm $F", opaque: true },
    { behaviour: "a variable not exported to bash -c", command: "F=x; bash -c 'rm $F'", opaque: true },
    { behaviour: "sudo's fresh environment", command: "export F=x; sudo sh -c 'rm $F'", opaque: true },
    { behaviour: "an assignment that may not run", command: "F=a; [ -f x ] && F=b; rm $F", opaque: true },
    { behaviour: "branches that disagree", command: "if c; then F=a; else F=b; fi; rm $F", opaque: true },
    { behaviour: "a cd that may not run", command: "[ -d d ] && cd d; touch f", opaque: true },
    {
      behaviour: "a value that changes from pass to pass of a loop",
      command: "F=a; while true; do rm $F; F=$F.x; done",
      writes: ["a"],
      opaque: true,
    },
    {
      behaviour: "an assignment skipped by break",
      command: "for i in 1 2; do F=x; break; F=y; done; rm $F",
      opaque: true,
    },
    {
      behaviour: "a loop over lines read at run time",
      command: 'while read f; do rm "$f"; done < l',
      opaque: true,
    },
    { behaviour: "for without in runs over $@", command: 'for f; do rm "$f"; done', opaque: true },
    { behaviour: "read", command: "F=a; read F; rm $F", opaque: true },
    { behaviour: "unset", command: "F=a; unset F; rm $F", opaque: true },
    { behaviour: "printf -v", command: "F=a; printf -v F '%s' b; rm $F", opaque: true },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    { behaviour: "${F:=x} assigns", command: "F=a; : ${F:=b}; rm $F", opaque: true },
    { behaviour: "arithmetic assigns", command: "F=a; echo $((F=3)); rm $F", opaque: true },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    { behaviour: "a default value", command: "F=${G:-x}; rm $F", opaque: true },
    { behaviour: "an array", command: "declare -a A=(x y); rm $A", opaque: true },
    { behaviour: "a name reference", command: "F=a; declare -n R=F; R=b; rm $F", opaque: true },
    { behaviour: "a function that recurses forever", command: "f() { f; }; f", opaque: true },
    { behaviour: "sudo runs a program, not the function", command: "f() { rm a; }; sudo f", opaque: true },
    { behaviour: "a changed IFS", command: "IFS=:; F=a:b; rm $F", opaque: true },
    { behaviour: "$PWD without the caller's directory", command: 'cd "$D"; rm $PWD/x', opaque: true },
  ])("$behaviour", run);
});
