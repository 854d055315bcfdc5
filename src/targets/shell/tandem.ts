/**
 * `tandem` itself, however it is reached: `tandem hook …`, `/abs/path/tandem
 * git-hook …`, `node …/tandem.cjs hook`, `npx tandem hook`, `npm exec tandem -- hook`.
 * From an agent's shell a hook call can only be forged, so it is flagged for the
 * caller to refuse. Other package runners (`npx`, `npm exec` …) run programs we
 * cannot read: opaque.
 */
import { posix } from "node:path";
import { type OptionSpec, splitOptions } from "./args.js";
import { childVars } from "./scope.js";
import type { Arg, CommandContext } from "./types.js";

const PROGRAM = /^tandem(\.[cm]?js)?$/;

/** `tandem`, `/usr/local/bin/tandem`, `dist/tandem.cjs`, `tandem@1.2.0` (a package spec). */
export function isTandemProgram(name: string): boolean {
  return PROGRAM.test(posix.basename(name).replace(/(?<=.)@[^/]*$/, ""));
}

/** Commands that only read or write Tandem's store, never the project's files. */
const STORE_ONLY = new Set(["status", "task", "claims", "release", "sessions", "events"]);

export function handleTandem(args: Arg[], ctx: CommandContext): void {
  const word = commandWord(args);
  if (word === null || word === "hook" || word === "git-hook") ctx.walker.markTandemHook();
  if (word === "init" || word === "deinit") ctx.walker.markWiringCommand(`tandem ${word}`);
  if (word === "sub" && args.some((a) => a === "--allow-config"))
    ctx.walker.markWiringCommand("tandem sub … --allow-config");
  if (word === null || !STORE_ONLY.has(word)) ctx.walker.markOpaque(); // recover, init, sub … write files
}

/** The first word that is not a global option (`--root DIR`); null when it is only known at run time. */
function commandWord(args: Arg[]): Arg {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === null) return null;
    if (arg === "--root") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return "";
}

const NODE_SPEC: OptionSpec = {
  valued: "rCep",
  long: ["--require", "--import", "--loader", "--experimental-loader", "--conditions", "--eval", "--print"],
};

/** `node [options] SCRIPT args`: opaque, unless the script is Tandem's own. */
export function handleNode(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, NODE_SPEC);
  const evaluates = options.some((o) => o === null || /^(-[a-zA-Z]*[ep]|--eval|--print)/.test(o));
  const script = rest[0];
  if (!evaluates && typeof script === "string" && isTandemProgram(script)) handleTandem(rest.slice(1), ctx);
  else ctx.walker.markOpaque();
}

const NPX_SPEC: OptionSpec = { valued: "pcw", long: ["--package", "--call", "--workspace", "--prefix"] };

/** `npx [options] PKG args` (also `pnpx`, `bunx`): options stop at the package. */
export function handleNpx(args: Arg[], ctx: CommandContext): void {
  const { options, rest } = splitOptions(args, NPX_SPEC);
  runPackageProgram(rest, calls(options), ctx);
}

/**
 * `npm exec [options] PKG [--] args` (also `npm x`, `pnpm exec`, `pnpm dlx`,
 * `yarn dlx`, `bun x`): options may sit anywhere before `--`.
 */
export function handleExec(args: Arg[], ctx: CommandContext): void {
  const command: Arg[] = [];
  const options: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      command.push(...args.slice(i + 1));
      break;
    }
    if (arg === null || !arg.startsWith("-")) {
      command.push(arg);
      continue;
    }
    options.push(arg);
    if (takesValue(arg)) options.push(args[++i] ?? null);
  }
  runPackageProgram(command, calls(options), ctx);
}

function takesValue(option: string): boolean {
  return NPX_SPEC.long!.includes(option) || /^-[pcw]$/.test(option);
}

/** The scripts given with `-c` / `--call`, which run in a shell. */
function calls(options: Arg[]): Arg[] {
  const scripts: Arg[] = [];
  for (let i = 0; i < options.length; i++) {
    const option = options[i];
    if (option === "-c" || option === "--call") scripts.push(options[i + 1] ?? null);
    else if (option?.startsWith("--call=")) scripts.push(option.slice("--call=".length));
  }
  return scripts;
}

function runPackageProgram(command: Arg[], scripts: Arg[], ctx: CommandContext): void {
  const shell = { cwd: ctx.scope.cwd, vars: childVars(ctx.scope.vars, ctx.env) };
  for (const script of scripts) {
    if (script === null) ctx.walker.markOpaque();
    else ctx.walker.runScript(script, shell);
  }
  const [program, ...rest] = command;
  if (typeof program === "string" && isTandemProgram(program)) handleTandem(rest, ctx);
  else if (program !== undefined || scripts.length === 0) ctx.walker.markOpaque();
}
