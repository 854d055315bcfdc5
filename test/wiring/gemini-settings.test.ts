import { mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIN } from "../helpers/cli.js";
import { initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import { pathWithoutCodex, read, runHere as run } from "./helpers.js";

/** A user's own Gemini settings: comments, a trailing comma, other settings and a hook of theirs. */
const THEIRS = `// team settings
{
  "general": { "vimMode": true }, // keep me
  "hooks": {
    "BeforeTool": [
      { "matcher": "write_file", "hooks": [{ "type": "command", "command": "./lint.sh", "name": "lint" }] },
    ],
  },
}
`;

function project(): { dir: string; home: string } {
  const base = tempDir();
  const dir = initRepo(join(base, "repo"));
  writeFiles(dir, { ".gemini/settings.json": THEIRS });
  const home = join(base, "home");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  return { dir, home };
}

const gemini = ["--clients", "gemini-cli"];

describe("tandem init --clients gemini-cli", () => {
  it("adds Tandem's hooks beside the team's, idempotently, and deinit restores the file byte for byte", async () => {
    const { dir, home } = project();
    const env = { HOME: home };
    expect((await run(["init", ...PIN, ...gemini], dir, env)).code).toBe(0);
    const wired = read(join(dir, ".gemini/settings.json"))!;
    expect(wired).toContain('"command": "./lint.sh"');
    expect(wired).toContain("// keep me");
    expect(wired.match(/ hook gemini-cli /g)).toHaveLength(6);
    expect((await run(["init", ...PIN, ...gemini], dir, env)).stdout).toContain("Already up to date.");
    expect(read(join(dir, ".gemini/settings.json"))).toBe(wired);
    expect((await run(["init", "--check", ...PIN, ...gemini], dir, env)).code).toBe(0);

    writeFileSync(
      join(dir, ".gemini/settings.json"),
      wired.replace("gemini-cli after-tool", "gemini-cli after-tol"),
    );
    const check = await run(["init", "--check", ...PIN, ...gemini], dir, env);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/\.gemini\/settings\.json: AfterTool hook differs/);
    const doctor = await run(["doctor"], dir, env);
    expect(doctor.stdout).toMatch(/✗ client hooks: \.gemini\/settings\.json: AfterTool hook differs/);

    expect((await run(["deinit", ...gemini], dir, env)).code).toBe(0);
    expect(read(join(dir, ".gemini/settings.json"))).toBe(THEIRS);
  });

  it("has doctor report Gemini's folder trust from the trusted folders file, where `gemini` is installed", async () => {
    const { dir, home } = project();
    // A `gemini` on PATH: trust is a problem only for a client used here (test/doctor/trust-in-use.test.ts).
    const bin = join(home, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "gemini"), "#!/bin/sh\n", { mode: 0o755 });
    const PATH = `${bin}${delimiter}${pathWithoutCodex()}`;
    const env = { HOME: home, PATH, GEMINI_CLI_TRUST_WORKSPACE: undefined, GEMINI_CLI_HOME: undefined };
    expect((await run(["init", ...PIN, ...gemini], dir, env)).stdout).toMatch(
      /^Gemini CLI: no rule in .*trustedFolders\.json covers this project.*; open `gemini` here and choose to trust the folder/m,
    );
    const folders = join(home, ".gemini/trustedFolders.json");
    expect((await run(["doctor"], dir, env)).stdout).toMatch(
      /✗ gemini trust: no rule in .*trustedFolders\.json covers this project: .*headless \(`gemini -p`\) runs none of its hooks/,
    );
    writeFileSync(folders, JSON.stringify({ [join(dir, "..")]: "TRUST_FOLDER" }));
    expect((await run(["doctor"], dir, env)).stdout).toMatch(
      /✓ gemini trust: Gemini CLI trusts this project/,
    );
    writeFileSync(folders, JSON.stringify({ [join(dir, "..")]: "TRUST_FOLDER", [dir]: "DO_NOT_TRUST" }));
    expect((await run(["doctor"], dir, env)).stdout).toMatch(
      /✗ gemini trust: .* marks this project DO_NOT_TRUST/,
    );
    expect((await run(["doctor"], dir, { ...env, GEMINI_CLI_TRUST_WORKSPACE: "true" })).stdout).toMatch(
      /✓ gemini trust: .*GEMINI_CLI_TRUST_WORKSPACE=true/,
    );
  });

  it("writes the ritual's allow rule as a user policy of Gemini's, checks it, and deinit deletes it", async () => {
    const { dir, home } = project();
    const env = { HOME: home, GEMINI_CLI_HOME: undefined };
    expect((await run(["init", "--command", "tandem", ...gemini], dir, env)).code).toBe(0);
    // One file per repository (decision 0048), named after it and keyed by its path.
    const files = readdirSync(join(home, ".gemini/policies"));
    expect(files).toEqual([expect.stringMatching(/^tandem-repo-[0-9a-f]{12}\.toml$/)]);
    const policy = join(home, ".gemini/policies", files[0]!);
    const text = read(policy)!;
    expect(text).toContain(`# Repository: ${realpathSync(dir)}`);
    expect(text).toContain('toolName = "run_shell_command"');
    // No `tandem` on this login PATH: agents are told the repository launcher (decision 0030), so
    // the rule names its commands after the launcher's own.
    const launcher = join(realpathSync(dir), ".git/tandem/bin/tandem");
    expect(text).toContain(
      `commandPrefix = ["tandem task", "tandem status", "${launcher} task", "${launcher} status"]`,
    );
    expect(text).toContain('decision = "allow"');
    // Not tools.allowed: that would deny every other shell command in the project.
    expect(read(join(dir, ".gemini/settings.json"))).not.toContain("allowed");
    expect((await run(["init", "--check", "--command", "tandem", ...gemini], dir, env)).code).toBe(0);

    rmSync(policy);
    const check = await run(["init", "--check", "--command", "tandem", ...gemini], dir, env);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(policy);
    expect((await run(["init", "--command", "tandem", ...gemini], dir, env)).code).toBe(0);
    expect(read(policy)).toBe(text);

    expect((await run(["deinit", ...gemini], dir, env)).code).toBe(0);
    expect(read(policy)).toBeNull();
  });
});
