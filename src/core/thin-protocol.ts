import { shellQuote } from "./shell-quote.js";

/**
 * The thin client's wire format (docs/server.md §2), pure. A request is NUL-separated fields
 * that POSIX `printf` can write: the magic, the client's build, its pid, its working directory,
 * the argument count and arguments, the forwarded variables as NAME=value, an empty field, then
 * the hook payload as raw bytes. An answer is a tiny shell script the client evaluates: the exact
 * stdout and stderr bytes single-quoted, the exit code, and an end mark that tells a whole
 * answer from a cut-off one.
 */
export const THIN_MAGIC = "tandem-thin 1";
export const ANSWER_END = ": tandem-end";

export interface ThinRequest {
  build: string;
  pid: number;
  cwd: string;
  args: string[];
  env: Record<string, string>;
  stdin: string;
}

export interface ThinAnswer {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Splits `body` at its first `count` NULs: the fields, then whatever follows (the payload). */
function fields(body: Buffer, count: number): { parts: string[]; rest: Buffer } | null {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const end = body.indexOf(0, at);
    if (end < 0) return null;
    parts.push(body.toString("utf8", at, end));
    at = end + 1;
  }
  return { parts, rest: body.subarray(at) };
}

export function parseThinRequest(body: Buffer): ThinRequest | { error: string } {
  const head = fields(body, 5);
  if (!head || head.parts[0] !== THIN_MAGIC) return { error: "not a Tandem thin-client request" };
  const [, build, pidText, cwd, argcText] = head.parts as [string, string, string, string, string];
  const pid = Number(pidText);
  const argc = Number(argcText);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(argc) || argc < 0 || argc > 64 || !cwd)
    return { error: "malformed request header" };
  const argv = fields(head.rest, argc);
  if (!argv) return { error: "truncated arguments" };
  const env: Record<string, string> = {};
  let rest = argv.rest;
  for (;;) {
    const one = fields(rest, 1);
    if (!one) return { error: "truncated environment" };
    rest = one.rest;
    const pair = one.parts[0]!;
    if (pair === "") break;
    const eq = pair.indexOf("=");
    if (eq <= 0) return { error: "malformed environment entry" };
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { build, pid, cwd, args: argv.parts, env, stdin: rest.toString("utf8") };
}

export function renderAnswer(a: ThinAnswer): string {
  const lines: string[] = [];
  if (a.stdout) lines.push(`printf '%s' ${shellQuote(a.stdout)}`);
  if (a.stderr) lines.push(`printf '%s' ${shellQuote(a.stderr)} >&2`);
  lines.push(`exit ${a.exitCode}`, ANSWER_END);
  return lines.join("\n");
}
