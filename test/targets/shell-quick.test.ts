/**
 * The quick parser (decision 0010) must build exactly the tree mvdan-sh builds for every
 * command it accepts, and accept the everyday commands it exists for.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, type Parser } from "../../src/targets/shell/load.js";
import { quickParse, quickParser } from "../../src/targets/shell/quick-parse.js";
import type { ShNode } from "../../src/targets/shell/syntax.js";
import { extractShellTargets } from "../../src/targets/shell.js";

/** The fields the walker reads, per node type; anything else must not occur in a quick tree. */
const FIELDS: Record<string, string[]> = {
  File: ["Stmts"],
  Stmt: ["Cmd", "Redirs", "Background", "Coprocess", "Negated"],
  CallExpr: ["Assigns", "Args"],
  Word: ["Parts"],
  Lit: ["Value"],
  SglQuoted: ["Value", "Dollar"],
  DblQuoted: ["Parts"],
  BinaryCmd: ["Op", "X", "Y"],
  Redirect: ["Op", "N", "Word", "Hdoc"],
};

/** A tree as plain data, operators by their spelling, so the two parsers' trees compare. */
function plain(p: Parser, n: unknown): unknown {
  if (Array.isArray(n)) return n.map((c) => plain(p, c));
  if (n === null || typeof n !== "object") return n;
  const type = p.syntax.NodeType(n as ShNode);
  const out: Record<string, unknown> = { $: type };
  for (const field of FIELDS[type] ?? []) {
    const value = (n as Record<string, unknown>)[field];
    if (field === "Op")
      out.Op = type === "Redirect" ? p.redirOps.get(value as number) : binaryOp(p, value as number);
    else out[field] = plain(p, value);
  }
  return out;
}

function binaryOp(p: Parser, op: number): string {
  if (op === p.andOp) return "&&";
  if (op === p.orOp) return "||";
  return p.pipeOps.has(op) ? "|" : `op ${op}`;
}

let mvdan: Parser;
beforeAll(async () => {
  mvdan = await loadParser();
});

function expectSameTree(command: string): void {
  const quick = quickParse(command);
  if (!quick) return;
  const full = mvdan.parse(command);
  expect(plain(quickParser, quick), command).toEqual(plain(mvdan, full));
}

const ACCEPTED = [
  "python3 -c 'import sys'",
  "npm test 2>&1 | tail -5",
  "git status",
  "git commit -qm 'fix: a thing' && git push",
  "ls -la src/targets",
  'grep -rn "some text" src test | head -20',
  "sed -n 1,40p src/main.ts",
  "cd sub && npm run build; echo done",
  "node --version || true",
  "echo hi > out.txt 2> err.log",
  "cat f >> log; cat <f",
  "make >/dev/null 2>&1",
  "cmd 2>&- >&2 &>all.log &>>more.log >|clobber <>rw",
  "git log --format=%H -- 'a b.txt'",
  'printf "%s" ""',
  "echo a'b'\"c\"d",
  "echo ünïcödé 日本",
  "rm -f -- -dash.txt",
  "echo a2>f",
  "  tandem status  ;  ",
  "",
];

const REJECTED = [
  "echo $HOME",
  'echo "a $b"',
  "echo `date`",
  "cat <<EOF\nx\nEOF",
  "cat <<< word",
  "a=b cmd",
  "export X=1",
  "declare -x Y",
  "let i=1",
  "ls *.ts",
  "echo {a,b}",
  "echo ~/x",
  "if true; then :; fi",
  "(cd x && make)",
  "{ echo a; }",
  "sleep 1 &",
  "a |& b",
  "echo x # comment",
  "echo a\\ b",
  "echo one\necho two",
  "! false",
  "time make",
  "diff <(a) <(b)",
  "[[ -f x ]]",
  "echo 'unterminated",
  "a && ",
  "; a",
  "a ;; b",
  "> onlyredirect",
  // Digits before a redirection after a quote or as a target: mvdan-sh reads a descriptor there.
  '"d q"2>>a',
  "a&>2>a",
];

/** The pinned seed, another one from FC_SEED, or none (fast-check draws one) for "random". */
function fuzzSeed(env: string | undefined): { seed?: number } {
  if (env === "random") return {};
  const seed = Number(env ?? "20261204");
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED=${env} is not an integer or "random"`);
  return { seed };
}

describe("quick shell parser", () => {
  it.each(ACCEPTED)("reads %j as mvdan-sh does", (command) => {
    expect(quickParse(command), "should be accepted").not.toBeNull();
    expectSameTree(command);
  });

  it.each(REJECTED)("leaves %j to mvdan-sh", (command) => {
    expect(quickParse(command)).toBeNull();
  });

  it("agrees with mvdan-sh on every random command it accepts", () => {
    const pieces = [
      "a",
      "git",
      "-x",
      "--k=v",
      "2",
      "12",
      " ",
      " ",
      "\t",
      ";",
      "&&",
      "||",
      "|",
      "&",
      ">",
      ">>",
      "<",
      ">&",
      "&>",
      "'q r'",
      '"d q"',
      '""',
      "''",
      "ü",
      "é",
      "=",
      "$",
      "*",
      "#",
      "!",
      "{",
      "}",
      "(",
      ")",
      "\\",
      "~",
      "-",
      ".",
      "/",
      "%",
      "@",
      ":",
      ",",
      "+",
      "\u00a0",
    ];
    // fast-check draws the commands and, on a disagreement, shrinks it to the fewest pieces and
    // prints the seed that replays it. The seed is pinned so CI is repeatable; FC_SEED=<n> (or
    // FC_SEED=random) explores further, and whatever it finds is pinned in REJECTED.
    const command = fc
      .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 10 })
      .map((parts) => parts.join(""));
    let accepted = 0;
    fc.assert(
      fc.property(command, (text) => {
        if (quickParse(text)) accepted++;
        expectSameTree(text);
      }),
      { numRuns: 3000, ...fuzzSeed(process.env.FC_SEED) },
    );
    // The generator must reach the parser's accepting paths, or the comparison proves little.
    expect(accepted).toBeGreaterThan(300);
  });

  it.each([
    ...ACCEPTED,
    "bash -c 'echo x > inner.txt'",
    "sh -c 'echo $X > f' && echo y > g",
    "env FOO=1 sh -c 'rm -rf build'",
  ])("finds the same targets in %j through either parser", async (command) => {
    const options = { home: "/home/user", cwd: "/nonexistent-dir" };
    const quick = await extractShellTargets(command, options);
    const full = await extractShellTargets(command, { ...options, quick: false });
    expect(quick).toEqual(full);
  });
});
