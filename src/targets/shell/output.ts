/**
 * What `echo` and `printf` print when every argument is static: handed to the walker
 * as the next pipeline stage's stdin, so `echo . | xargs git checkout` is read as the
 * command it runs. Anything the reader cannot print exactly gives no output at all.
 */
import { forgetsNamed } from "./builtins.js";
import type { Arg, CommandContext } from "./types.js";

export function handleEcho(args: Arg[], ctx: CommandContext): void {
  if (args.some((a) => a === null)) return;
  const words = args as string[];
  let newline = true;
  let i = 0;
  for (; i < words.length && /^-[neE]+$/.test(words[i]!); i++) {
    if (words[i]!.includes("e")) return; // escapes interpreted: leave it unknown
    if (words[i]!.includes("n")) newline = false;
  }
  ctx.walker.setOutput(words.slice(i).join(" ") + (newline ? "\n" : ""));
}

/** `printf -v F …` sets F; any other printf only prints. */
export function handlePrintf(args: Arg[], ctx: CommandContext): void {
  const first = args[0];
  if (first === null || first?.startsWith("-v")) {
    forgetsNamed()(args, ctx);
    return;
  }
  if (first === undefined || args.some((a) => a === null)) return;
  const words = (first === "--" ? args.slice(1) : args) as string[];
  const text = printfText(words[0] ?? "", words.slice(1));
  if (text !== null) ctx.walker.setOutput(text);
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", "\\": "\\", "0": "\0" };

/** The format applied to the arguments, repeated until they are used up; only `%s`, `%%` and plain escapes. */
export function printfText(format: string, args: readonly string[]): string | null {
  let out = "";
  let next = 0;
  do {
    let used = false;
    for (let i = 0; i < format.length; i++) {
      const c = format[i]!;
      const d = format[++i];
      if (c !== "%" && c !== "\\") {
        out += c;
        i--;
      } else if (c === "%" && d === "%") out += "%";
      else if (c === "%" && d === "s") {
        out += args[next++] ?? "";
        used = true;
      } else if (c === "\\" && d !== undefined && Object.hasOwn(ESCAPES, d)) out += ESCAPES[d];
      else return null;
    }
    if (!used) break;
  } while (next < args.length);
  return out;
}
