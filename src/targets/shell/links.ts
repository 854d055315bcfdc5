/**
 * Commands that make links: `ln`, `ln -s`, `link`, `cp -l`, `cp -s`, and the copies that keep
 * symlinks as symlinks (`cp -a`, `-d`, `-P`, `-R`). A hard link is the same file under a second
 * name, so making one writes the file linked to: its sources are write targets, claimed like any
 * other. A write through a link made in the same command lands wherever the link points, which
 * the names do not say: the walker makes such a command opaque (Findings.addLinkTargets). Links
 * made in an earlier call are followed at the edge, where the file system is (facts/physical.ts).
 */
import { posix } from "node:path";
import { has, type OptionSpec, type ParsedArgs, parseArgs, values } from "./args.js";
import type { Arg, CommandContext } from "./types.js";

const SPEC: OptionSpec = { valued: "St", long: ["--suffix", "--target-directory"] };

interface LinkOperands {
  /** What the links are made to. */
  sources: Arg[];
  /** The names made: the destination, or the `-t DIR` directory. */
  made: Arg[];
}

/** `CMD SRC… DEST`, `CMD -t DIR SRC…`, and `CMD SRC` alone (into the current directory, when `alone` says how). */
function linkOperands(parsed: ParsedArgs, alone?: (source: Arg) => Arg): LinkOperands {
  const dirs = values(parsed, "-t", "--target-directory");
  const { operands } = parsed;
  if (dirs.length > 0) return { sources: operands, made: dirs };
  if (operands.length >= 2) return { sources: operands.slice(0, -1), made: operands.slice(-1) };
  if (operands.length === 1 && alone) return { sources: operands, made: [alone(operands[0]!)] };
  return { sources: operands, made: [] };
}

/** A long option given as any unambiguous prefix of its name (`--sym` for `--symbolic`), as getopt takes it. */
function hasLong(parsed: ParsedArgs, name: string, shortest: number): boolean {
  for (const key of parsed.options.keys()) if (key.length >= shortest && name.startsWith(key)) return true;
  return false;
}

/** `ln`: a hard link unless `-s`; `ln TARGET` alone links into the current directory. */
export function handleLn(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, SPEC);
  const { sources, made } = linkOperands(parsed, (source) =>
    source === null ? null : posix.basename(source),
  );
  // `--s` is ambiguous (`--suffix`); only a clear symbolic spelling spares the sources.
  const symbolic = has(parsed, "-s") || hasLong(parsed, "--symbolic", 4);
  ctx.walker.addLinkTargets(symbolic ? made : [...made, ...sources], ctx.scope);
}

/** `link FILE NAME`: always a hard link. */
export function handleLink(args: Arg[], ctx: CommandContext): void {
  ctx.walker.addLinkTargets(parseArgs(args).operands, ctx.scope);
}

/** `cp`: the destination is written; `-l` hard-links its sources, and `-s`, `-a`, `-d`, `-P`, `-R` may make symlinks. */
export function handleCp(args: Arg[], ctx: CommandContext): void {
  const parsed = parseArgs(args, SPEC);
  const { sources, made } = linkOperands(parsed);
  if (has(parsed, "-l") || hasLong(parsed, "--link", 4)) {
    ctx.walker.addLinkTargets([...made, ...sources], ctx.scope);
  } else if (keepsLinks(parsed)) {
    ctx.walker.addLinkTargets(made, ctx.scope);
  } else {
    for (const path of made) ctx.walker.addTarget(path, ctx.scope);
  }
}

/** Whether a copy may make symlinks: `-s`, or copying symlinks as symlinks. */
function keepsLinks(parsed: ParsedArgs): boolean {
  if (has(parsed, "-s", "-a", "-d", "-P", "-R", "-r")) return true;
  const long = ["--symbolic-link", "--archive", "--no-dereference", "--recursive"];
  if (long.some((name) => hasLong(parsed, name, 4))) return true;
  // `--preserve=links` keeps hard links between the sources; `--preserve=all` includes it.
  return values(parsed, "--preserve").some((v) => /\b(links|all)\b/.test(v));
}
