import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  parseAnswer,
  parseThinRequest,
  renderAnswer,
  THIN_MAGIC,
} from "../../src/core/server/thin-protocol.js";

const nul = "\0";
const request = (fields: string[], payload = "") => Buffer.from(fields.join(nul) + nul + payload);

/** The thin client's own `print_answer`, cut from src/thin/tandem.sh. */
const PRINT_ANSWER = (() => {
  const script = readFileSync(new URL("../../src/thin/tandem.sh", import.meta.url), "utf8");
  const start = script.indexOf("print_answer() {");
  return script.slice(start, script.indexOf("\n}\n", start) + 3);
})();

/** Reads an answer the way the thin client does, in `shell`; status 99 when it is taken as lost. */
function readAnswer(shell: string, text: string): { status: number | null; stdout: string; stderr: string } {
  const program = `nl='\n'\n${PRINT_ANSWER}\nprint_answer "$1"\nexit 99`;
  const r = spawnSync(shell, ["-c", program, "sh", text], {
    encoding: "utf8",
    env: { ...process.env, LC_ALL: "C" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the thin client's request", () => {
  it("carries build, pid, directory, arguments, variables and the raw payload", () => {
    const body = request(
      [
        THIN_MAGIC,
        "1.0+x",
        "42",
        "/r e/p",
        "3",
        "hook",
        "claude-code",
        "pre-tool-use",
        "HOME=/h",
        "A=b=c",
        "",
      ],
      '{"a":"\\u0000 ünï\n"}\n\n',
    );
    expect(parseThinRequest(body)).toEqual({
      build: "1.0+x",
      pid: 42,
      cwd: "/r e/p",
      args: ["hook", "claude-code", "pre-tool-use"],
      env: { HOME: "/h", A: "b=c" },
      stdin: '{"a":"\\u0000 ünï\n"}\n\n',
    });
  });

  it.each([
    ["another protocol", request(["tandem-thin 2", "b", "1", "/", "0", ""])],
    ["a pid that is not a number", request([THIN_MAGIC, "b", "x", "/", "0", ""])],
    ["no working directory", request([THIN_MAGIC, "b", "1", "", "0", ""])],
    ["fewer arguments than counted", request([THIN_MAGIC, "b", "1", "/", "2", "hook"]).subarray(0, -1)],
    ["no end to the variables", Buffer.from([THIN_MAGIC, "b", "1", "/", "0", "A=1"].join(nul))],
    ["a variable without a name", request([THIN_MAGIC, "b", "1", "/", "0", "=x", ""])],
  ])("rejects %s", (_, body) => {
    expect(parseThinRequest(body)).toHaveProperty("error");
  });
});

describe("the server's answer", () => {
  it.each([
    ["nothing at all", { exitCode: 0, stdout: "", stderr: "" }],
    ["JSON with quotes", { exitCode: 0, stdout: `{"reason":"it's \\"held\\""}\n`, stderr: "" }],
    [
      "a refusal on stderr with exit 2",
      { exitCode: 2, stdout: "", stderr: "Tandem refused: $HOME `x` \\n\n" },
    ],
    ["trailing newlines and non-ASCII", { exitCode: 1, stdout: "ünï\n\n\n", stderr: "'\n'" }],
    ["shell code", { exitCode: 0, stdout: "$(touch pwned); `id`", stderr: "'; exit 7 #" }],
    ["the separator it would pick", { exitCode: 4, stdout: "TANDEM-0-TANDEM-1", stderr: "TANDEM-2-" }],
    ["the end mark itself", { exitCode: 0, stdout: "\ntandem-end", stderr: "tandem-answer 9 X\n" }],
  ])("reproduces %s byte for byte when read by sh and by bash", (_, answer) => {
    const text = renderAnswer(answer);
    expect(parseAnswer(text)).toEqual(answer);
    for (const shell of ["sh", "bash"])
      expect({ shell, ...readAnswer(shell, text) }).toEqual({
        shell,
        status: answer.exitCode,
        stdout: answer.stdout,
        stderr: answer.stderr,
      });
  });

  const whole = renderAnswer({ exitCode: 0, stdout: "out", stderr: "err" });
  it.each([
    ["cut off before its end mark", whole.slice(0, -3)],
    ["cut off inside stdout", whole.slice(0, 20)],
    ["without a first line", "out"],
    ["an old answer, a script", "printf '%s' out\nexit 0\n: tandem-end"],
    ["an exit code that is not a number", whole.replace("answer 0", "answer $(id)")],
    ["an exit code past 255", whole.replace("answer 0", "answer 1000")],
    ["a separator with shell characters", "tandem-answer 0 A*\noutA*errA*\ntandem-end"],
    ["a separator three times", "tandem-answer 0 S\noutSerrSS\ntandem-end"],
    ["something after the end mark", `${whole}\nexit 0`],
  ])("takes an answer %s as lost, printing nothing", (_, text) => {
    expect(parseAnswer(text)).toBeNull();
    for (const shell of ["sh", "bash"])
      expect({ shell, ...readAnswer(shell, text) }).toEqual({ shell, status: 99, stdout: "", stderr: "" });
  });
});
