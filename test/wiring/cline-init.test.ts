import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN } from "../helpers/cli.js";
import { initRepo, tempDir } from "../helpers/repo.js";
import { LAUNCHER, read, runHere as run } from "./helpers.js";

/** Cline CLI runs every file named after a hook event in this folder (docs/clients.md §14.1). */
const HOOKS = ".clinerules/hooks";
const EVENTS = [
  "PreToolUse",
  "TaskStart",
  "TaskResume",
  "UserPromptSubmit",
  "PostToolUse",
  "TaskComplete",
  "SessionShutdown",
];

function repo(): string {
  return initRepo(join(tempDir(), "repo"));
}

const executable = (file: string) => (statSync(file).mode & 0o111) === 0o111;

describe("tandem init --clients cline", () => {
  it("writes the seven hook files, executable and calling this launcher, and --check finds them current", async () => {
    const dir = repo();
    const res = await run(["init", ...PIN, "--clients", "cline"], dir);
    expect(res.code, res.stderr).toBe(0);
    expect(readdirSync(join(dir, HOOKS)).sort()).toEqual([...EVENTS].sort());
    for (const event of EVENTS) {
      const file = join(dir, HOOKS, event);
      expect(executable(file), event).toBe(true);
      expect(read(file)).toMatch(/^#!\/bin\/sh\n/);
      expect(read(file)).toContain(`${LAUNCHER} hook cline `);
    }
    const check = await run(["init", "--check", ...PIN, "--clients", "cline"], dir);
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toMatch(/is up to date/);
  });

  it("reports an edited or no longer executable hook file in init --check and doctor, and init heals it", async () => {
    const dir = repo();
    expect((await run(["init", ...PIN, "--clients", "cline"], dir)).code).toBe(0);
    const complete = join(dir, HOOKS, "TaskComplete");
    const written = read(complete);
    appendFileSync(complete, "echo tampered\n");
    chmodSync(join(dir, HOOKS, "TaskStart"), 0o644);

    const check = await run(["init", "--check", ...PIN, "--clients", "cline"], dir);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`${HOOKS}/TaskComplete: Tandem's hook file differs`);
    expect(check.stdout).toContain(`${HOOKS}/TaskStart: not executable`);
    const doctor = await run(["doctor"], dir);
    expect(doctor.code).toBe(1);
    // Under the client's heading, not the git hooks': the folder is Cline's.
    expect(doctor.stdout).toContain(`✗ client hooks: ${HOOKS}/TaskComplete: Tandem's hook file differs`);
    expect(doctor.stdout).toMatch(/fix: run `.+ init`/);

    // Plain `init` rewires with the launcher .tandem/config.jsonc recorded.
    const heal = await run(["init", "--clients", "cline"], dir);
    expect(heal.code, heal.stderr).toBe(0);
    expect(read(complete)).toBe(written);
    expect(executable(join(dir, HOOKS, "TaskStart"))).toBe(true);
    expect((await run(["init", "--check", ...PIN, "--clients", "cline"], dir)).code).toBe(0);
    expect((await run(["doctor"], dir)).stdout).not.toContain(HOOKS);
  });

  it("refuses a person's own PreToolUse file, naming it and what to do, and writes nothing", async () => {
    const dir = repo();
    mkdirSync(join(dir, HOOKS), { recursive: true });
    const theirs = '#!/bin/sh\necho "{}"\n';
    writeFileSync(join(dir, HOOKS, "PreToolUse"), theirs, { mode: 0o755 });
    const res = await run(["init", ...PIN, "--clients", "cline"], dir);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(
      `${HOOKS}/PreToolUse: not written by Tandem; move it aside (Tandem writes Cline CLI's hook there), then re-run (nothing was written).`,
    );
    expect(read(join(dir, HOOKS, "PreToolUse"))).toBe(theirs);
    expect(readdirSync(join(dir, HOOKS))).toEqual(["PreToolUse"]);
  });

  it("deinit removes Tandem's hook files and the folders they leave empty, never a person's own file", async () => {
    const dir = repo();
    expect((await run(["init", ...PIN, "--clients", "cline"], dir)).code).toBe(0);
    expect((await run(["deinit", "--clients", "cline"], dir)).code).toBe(0);
    expect(existsSync(join(dir, ".clinerules"))).toBe(false);

    expect((await run(["init", ...PIN, "--clients", "cline"], dir)).code).toBe(0);
    const mine = join(dir, HOOKS, "TaskCancel");
    writeFileSync(mine, "#!/bin/sh\necho cancelled >> cancel.log\n", { mode: 0o755 });
    const res = await run(["deinit", "--clients", "cline"], dir);
    expect(res.code, res.stderr).toBe(0);
    expect(readdirSync(join(dir, HOOKS))).toEqual(["TaskCancel"]);
    expect(read(mine)).toBe("#!/bin/sh\necho cancelled >> cancel.log\n");
  });
});
