import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ANSWER_END, parseThinRequest, renderAnswer, THIN_MAGIC } from "../../src/core/thin-protocol.js";

const nul = "\0";
const request = (fields: string[], payload = "") => Buffer.from(fields.join(nul) + nul + payload);

/** Runs an answer the way the thin client does: evaluated by sh, after checking its end mark. */
function evaluate(script: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync("sh", ["-c", 'eval "$1"', "sh", script], { encoding: "utf8" });
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
  ])("reproduces %s byte for byte when evaluated by sh", (_, answer) => {
    const script = renderAnswer(answer);
    expect(script.endsWith(`\n${ANSWER_END}`)).toBe(true);
    expect(evaluate(script)).toEqual({
      status: answer.exitCode,
      stdout: answer.stdout,
      stderr: answer.stderr,
    });
  });
});
