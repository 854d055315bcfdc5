/**
 * The thin client's wire format (docs/server.md §2), pure. A request is NUL-separated fields
 * that POSIX `printf` can write: the magic, the client's build, its pid, its working directory,
 * the argument count and arguments, the forwarded variables as NAME=value, an empty field, then
 * the hook payload as raw bytes. An answer is data the client prints and never evaluates: a first
 * line `tandem-answer <exit code> <separator>`, the exact stdout bytes, the separator, the exact
 * stderr bytes, the separator, a newline and an end mark that tells a whole answer from a cut-off
 * one. The separator occurs in neither output, and no proper prefix of it is also its suffix, so
 * its first occurrence in each part is where the output ends (decision 0027).
 */
export const THIN_MAGIC = "tandem-thin 1";
export const ANSWER_MAGIC = "tandem-answer";
export const ANSWER_END = "tandem-end";
/**
 * The largest request either transport takes. A client's post-tool payload for a Write can carry
 * the content three times (input, response, the file before), so a 50 MB Write must fit (issue 37.7).
 */
export const MAX_REQUEST_BYTES = 256 * 1024 * 1024;

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

/** `TANDEM-<n>-`: "T" occurs once, so no proper prefix equals a suffix; the least n absent from both. */
export function answerSeparator(a: ThinAnswer): string {
  for (let n = 0; ; n++) {
    const sep = `TANDEM-${n}-`;
    if (!a.stdout.includes(sep) && !a.stderr.includes(sep)) return sep;
  }
}

export function renderAnswer(a: ThinAnswer): string {
  const sep = answerSeparator(a);
  return `${ANSWER_MAGIC} ${a.exitCode} ${sep}\n${a.stdout}${sep}${a.stderr}${sep}\n${ANSWER_END}`;
}

/**
 * Reads an answer exactly as the thin client's `print_answer` does (src/thin/tandem.sh), with the
 * same checks; null for anything it would treat as lost.
 */
export function parseAnswer(text: string): ThinAnswer | null {
  const nl = text.indexOf("\n");
  if (nl < 0) return null;
  const head = /^tandem-answer ([0-9]{1,3}) ([A-Z0-9-]+)$/.exec(text.slice(0, nl));
  if (!head) return null;
  const [, code, sep] = head as unknown as [string, string, string];
  const rest = text.slice(nl + 1);
  const outEnd = rest.indexOf(sep);
  if (outEnd < 0) return null;
  const afterOut = rest.slice(outEnd + sep.length);
  const errEnd = afterOut.indexOf(sep);
  if (errEnd < 0 || afterOut.slice(errEnd + sep.length) !== `\n${ANSWER_END}`) return null;
  return { exitCode: Number(code), stdout: rest.slice(0, outEnd), stderr: afterOut.slice(0, errEnd) };
}

/** What the loopback port's client sends after the handshake: `tandem-request <token> <length> `, then the body. */
export const FRAME_MAGIC = "tandem-request ";
const FRAME_HEAD = /^tandem-request ([0-9a-f]{1,128}) ([0-9]{1,12}) /;
const MAX_FRAME_HEAD = 160;

export type Frame =
  | { kind: "more"; need?: number }
  | { kind: "bad"; why: string }
  | { kind: "whole"; token: string; body: Buffer };

/**
 * Reads the loopback framing (decision 0027, addendum): one line-free head giving the token and the
 * body's length, so bash's line-buffered `printf` sends the whole request in one write (an HTTP
 * request's many lines went out as many writes, and Nagle held each behind a delayed ACK).
 */
export function readFrame(data: Buffer, maxBody: number): Frame {
  const head = data.subarray(0, MAX_FRAME_HEAD).toString("latin1");
  const m = FRAME_HEAD.exec(head);
  if (!m) {
    if (/^tandem-request \S* \S* /.test(head)) return { kind: "bad", why: "a malformed request head" };
    const partial = FRAME_MAGIC.startsWith(head.slice(0, FRAME_MAGIC.length)) && !/[^ -~]/.test(head);
    return partial && data.length < MAX_FRAME_HEAD
      ? { kind: "more" }
      : { kind: "bad", why: "not a Tandem request" };
  }
  const length = Number(m[2]);
  if (length > maxBody) return { kind: "bad", why: "request too large" };
  const start = m[0].length;
  if (data.length < start + length) return { kind: "more", need: start + length };
  if (data.length > start + length) return { kind: "bad", why: "more bytes than the request announced" };
  return { kind: "whole", token: m[1]!, body: data.subarray(start) };
}

/** The answer on the loopback port, shaped as the HTTP response the client already reads. */
export function frameAnswer(status: number, body: string): string {
  return `HTTP/1.1 ${status} tandem\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}
