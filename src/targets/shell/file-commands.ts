/**
 * Commands that write the files named in their arguments: rm, touch, mv,
 * install, `sed -i`, `perl -i`, chmod, chown, dd, `sort -o`, uniq, apply_patch …
 */
import { has, type OptionSpec, parseArgs, values } from "./args.js";
import { addAll, type CommandContext, type Handler } from "./handler.js";
import type { Arg } from "./types.js";

/** Every operand is written (rm, touch, mkdir, tee …). */
export function operandsWritten(spec: OptionSpec = {}): Handler {
  return (args, ctx) => addAll(ctx, parseArgs(args, spec).operands);
}

const MOVE_SPEC: OptionSpec = { valued: "St", long: ["--suffix", "--target-directory"] };

/** `install`: the destination (last operand, or `-t DIR`) is written. (`cp`, `ln`: links.ts.) */
function destinationWritten(spec: OptionSpec): Handler {
  return (args, ctx) => {
    const parsed = parseArgs(args, spec);
    const targetDirs = values(parsed, "-t", "--target-directory");
    if (targetDirs.length > 0) return addAll(ctx, targetDirs);
    const { operands } = parsed;
    if (operands.length >= 2) addAll(ctx, [operands[operands.length - 1]!]);
  };
}

export function handleMv(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, MOVE_SPEC);
  addAll(ctx, [...parsed.operands, ...values(parsed, "-t", "--target-directory")]);
}

export function handleInstall(args: Arg[], ctx: CommandContext): void {
  const spec: OptionSpec = {
    valued: "gmoSt",
    long: ["--group", "--mode", "--owner", "--suffix", "--target-directory", "--strip-program"],
  };
  const parsed = parseArgs(args, spec);
  if (has(parsed, "-d", "--directory")) {
    addAll(ctx, parsed.operands);
    return;
  }
  destinationWritten(spec)(args, ctx);
}

export function handleSed(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, {
    valued: "efl",
    attached: "i",
    long: ["--expression", "--file", "--line-length"],
  });
  if (!has(parsed, "-i", "--in-place")) return;
  const operands = [...parsed.operands];
  const hasScript = has(parsed, "-e", "-f", "--expression", "--file");
  // BSD sed spells "no backup" as a separate empty argument: `sed -i '' 's/a/b/' f`.
  if (!hasScript && operands[0] === "" && operands.length > 1) operands.shift();
  addAll(ctx, hasScript ? operands : operands.slice(1));
}

/** `perl -i` edits its file operands; any other perl program is opaque. */
export function handlePerl(args: Arg[], ctx: CommandContext): void {
  const { inPlace, hasCode, rest } = parsePerlSwitches(args);
  const files = hasCode ? rest : rest.slice(1);
  if (!inPlace || !hasCode || files.includes(null)) ctx.walker.markOpaque();
  if (inPlace) addAll(ctx, files);
}

function parsePerlSwitches(args: Arg[]): { inPlace: boolean; hasCode: boolean; rest: Arg[] } {
  let inPlace = false;
  let hasCode = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === null || !arg.startsWith("-") || arg === "-") break;
    if (arg === "--") {
      i++;
      break;
    }
    for (let j = 1; j < arg.length; j++) {
      const flag = arg[j]!;
      const rest = arg.slice(j + 1);
      if (flag === "i") inPlace = true;
      if (flag === "e" || flag === "E") hasCode = true;
      if ("eEIMm".includes(flag) && rest === "") i++; // value in the next argument
      if ("ieEIMml0xCdD".includes(flag)) break; // the rest of the cluster is this switch's value
    }
  }
  return { inPlace, hasCode, rest: args.slice(i) };
}

/** `chmod MODE FILE…`: GNU chmod takes a mode such as `-w` where an option could be. */
export function handleChmod(args: Arg[], ctx: CommandContext): void {
  const operands: Arg[] = [];
  let reference = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === null || !arg.startsWith("-") || /^-[rwxXst][rwxXstugoa,+=-]*$/.test(arg)) {
      operands.push(arg);
    } else if (arg.startsWith("--reference")) {
      reference = true;
      if (arg === "--reference") i++;
    }
  }
  addAll(ctx, reference ? operands : operands.slice(1));
}

export function handleChown(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, { long: ["--from", "--reference"] });
  addAll(ctx, has(parsed, "--reference") ? parsed.operands : parsed.operands.slice(1));
}

export function handleDd(args: Arg[], ctx: CommandContext): void {
  for (const arg of args) {
    if (arg === null) ctx.walker.markOpaque();
    else if (arg.startsWith("of=")) addAll(ctx, [arg.slice(3)]);
  }
}

export function handleSort(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, {
    valued: "kotST",
    long: ["--key", "--output", "--field-separator", "--buffer-size", "--temporary-directory"],
  });
  addAll(ctx, values(parsed, "-o", "--output"));
}

export function handleUniq(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, { valued: "fsw", long: ["--skip-fields", "--skip-chars", "--check-chars"] });
  if (parsed.operands.length >= 2) addAll(ctx, [parsed.operands[1]!]);
}

/**
 * `find` only reads, unless it deletes, runs commands or prints into files. The
 * command of `-exec` is still judged, with the names find hands it unknown.
 */
export function handleFind(args: Arg[], ctx: CommandContext): void {
  const acting = /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === null || arg === undefined || !acting.test(arg)) continue;
    ctx.walker.markOpaque();
    if (!/^-(exec|execdir|ok|okdir)$/.test(arg)) continue;
    const end = args.findIndex((word, j) => j > i && (word === ";" || word === "+"));
    // `{}` stands for each name found.
    const words = args.slice(i + 1, end === -1 ? undefined : end);
    const command = words.map((word) => (word?.includes("{}") ? null : word));
    if (command.length > 0) ctx.walker.runCommand(command, { ...ctx });
    if (end === -1) break;
    i = end;
  }
}

export function handleApplyPatch(args: Arg[], ctx: CommandContext): void {
  const text = ctx.heredoc !== undefined ? ctx.heredoc : args[0];
  if (text === null || text === undefined) {
    ctx.walker.markOpaque();
    return;
  }
  ctx.walker.addPatch(text, ctx.scope);
}
