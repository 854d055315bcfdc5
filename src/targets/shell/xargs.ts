/**
 * `xargs CMD ARGS`: the rest of CMD's arguments come from its stdin. When that is the
 * static output of an `echo`/`printf` piped in, the commands xargs would run are judged
 * as written out; otherwise the command is opaque, still judged with the input unknown
 * (`xargs tandem hook`, `xargs sh -c …`), and a git subcommand that can destroy work is
 * judged as the most it can destroy (core/git/worst-case.ts).
 */
import { splitAlias } from "../../core/git/alias.js";
import { worstCaseArgs } from "../../core/git/worst-case.js";
import { has, type OptionSpec, type ParsedArgs, parseArgs, splitOptions, values } from "./args.js";
import type { Arg, CommandContext } from "./types.js";

const XARGS_SPEC: OptionSpec = {
  valued: "aEdILnPs",
  attached: "eil",
  long: ["--arg-file", "--delimiter", "--eof", "--max-lines", "--max-args", "--max-procs"],
};

/** Options that change nothing about which arguments the command gets. */
const PLAIN = new Set([
  "-0",
  "--null",
  "-r",
  "--no-run-if-empty",
  "-t",
  "--verbose",
  "-P",
  "--max-procs",
  "-x",
]);
const SHAPING = new Set(["-n", "--max-args", "-I", "-i", "--replace"]);

export function handleXargs(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, XARGS_SPEC);
  const parsed = parseArgs(options, XARGS_SPEC);
  const command = rest.length > 0 ? rest : ["echo"];
  const runs = ctx.stdin === undefined ? null : staticRuns(parsed, command, ctx.stdin);
  if (runs !== null) {
    const { stdin: _used, ...inner } = ctx; // the input is spent on the arguments
    for (const run of runs) ctx.walker.runCommand(run, inner);
    return;
  }
  ctx.walker.markOpaque();
  judgeWorstGit(command, ctx);
  // `-I R` puts each input line where R is written (`-i` and `--replace` mean `{}`).
  const marks = replaceMarks(parsed);
  const known = command.map((arg) => (arg !== null && marks.some((mark) => arg.includes(mark)) ? null : arg));
  ctx.walker.runCommand([...known, null], { ...ctx });
}

function replaceMarks(parsed: ParsedArgs): string[] {
  return values(parsed, "-I", "-i", "--replace").map((mark) => mark || "{}");
}

/** The command lines xargs runs for this input, or null when the options make them unknown. */
function staticRuns(parsed: ParsedArgs, command: Arg[], input: string): Arg[][] | null {
  if (parsed.dynamic || [...parsed.options.keys()].some((k) => !PLAIN.has(k) && !SHAPING.has(k))) return null;
  const marks = replaceMarks(parsed);
  if (marks.length > 0) {
    // One run per non-empty line, its text (leading blanks dropped) put in place of the mark.
    const lines = input
      .split("\n")
      .map((l) => l.trimStart())
      .filter((l) => l !== "");
    return lines.map((line) =>
      command.map((arg) => (arg === null ? null : arg.split(marks.at(-1)!).join(line))),
    );
  }
  const nul = has(parsed, "-0", "--null");
  const items = nul ? input.split("\0").filter((s) => s !== "") : splitAlias(input);
  if (items === null) return null; // an unclosed quote: xargs refuses
  if (items.length === 0) return has(parsed, "-r", "--no-run-if-empty") ? [] : [command];
  const per = Number(values(parsed, "-n", "--max-args").at(-1) ?? items.length);
  if (!Number.isInteger(per) || per < 1) return null;
  const runs: Arg[][] = [];
  for (let i = 0; i < items.length; i += per) runs.push([...command, ...items.slice(i, i + per)]);
  return runs;
}

/** `… | xargs git checkout`: the git command judged with the worst arguments its input could give. */
function judgeWorstGit(command: Arg[], ctx: CommandContext): void {
  if (command[0] !== "git") return;
  const words = command.slice(1);
  const at = words.findIndex((w, i) => w === null || (!w.startsWith("-") && !isGlobalValue(words, i)));
  if (at !== -1 && words[at] === null) return;
  const globals = (at === -1 ? words : words.slice(0, at)) as string[];
  const worst = worstCaseArgs(at === -1 ? undefined : (words[at] as string));
  if (worst === null) return;
  const shown = command.map((w) => w ?? "…").join(" ");
  ctx.walker.addGitCall({
    cwd: ctx.scope.cwd,
    args: [...globals, ...worst],
    text: `${shown} (its other arguments come from xargs's input: judged as \`git ${[...globals, ...worst].join(" ")}\`)`,
  });
}

/** Whether word i is the value of the global option before it (`-C DIR`, `-c k=v`). */
function isGlobalValue(words: Arg[], i: number): boolean {
  const before = words[i - 1];
  return before === "-C" || before === "-c" || before === "--git-dir" || before === "--work-tree";
}
