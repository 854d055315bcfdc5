import { describe, expect, it } from "vitest";
import { handleHook } from "../../src/hooks/handler.js";
import { readHook } from "../../src/hooks/read.js";
import { claudeWrite, fakeAgent, ledger } from "../helpers/hooks.js";
import { initRepo, tempDir } from "../helpers/repo.js";

function request(repo: string, payload: unknown) {
  return {
    args: ["claude-code", "pre-tool-use"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...fakeAgent() },
    cwd: repo,
    pid: process.pid,
    stdin: JSON.stringify(payload),
  };
}

describe("a hook request is read once", () => {
  it("answers from the payload and root as first read, not by reading the request again", async () => {
    const repo = initRepo(tempDir());
    const req = request(repo, claudeWrite(repo, "s1", "a.txt"));
    const read = readHook(req);
    expect(read?.input?.kind).toBe("pre-tool");
    // What the handler would find if it read again: no JSON, and a directory with no repository.
    const answer = await handleHook({ ...req, stdin: "not json", cwd: tempDir() }, read);
    expect(answer.exitCode).toBe(0);
    expect(answer.stdout).not.toMatch(/deny/);
    expect(ledger(repo).claims).toEqual([{ path: "a.txt", holder: "s1" }]);
  });

  it("reads the request itself when no caller read it: a payload that is not JSON is recorded as such", async () => {
    const repo = initRepo(tempDir());
    await handleHook({ ...request(repo, {}), stdin: "not json" });
    const errors = ledger(repo).events.filter((e) => e.kind === "hook.error");
    expect(errors.map((e) => (e.data as { message: string }).message)).toEqual([
      "payload is not JSON (8 bytes)",
    ]);
  });

  it("names no client for arguments that name none", () => {
    const repo = initRepo(tempDir());
    expect(readHook({ ...request(repo, {}), args: ["no-such-client", "pre-tool-use"] })).toBeNull();
  });
});
