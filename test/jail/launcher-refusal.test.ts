/**
 * The jail launcher's own refusal (decision 0051): it prints the doctor command it was written
 * with exactly, though the launcher sits under a path with a space, a quote, `%` or `\`, which its
 * printf format and single quotes would otherwise eat.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launcherText } from "../../src/core/jail/launcher.js";
import { printed } from "../../src/core/printed.js";

const dir = mkdtempSync(join(tmpdir(), "tandem-jail-refusal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the jail launcher's refusal", () => {
  it.each([
    ["a devDependency's person", "npx tandem"],
    ["an agent's repository launcher", "/r/.git/tandem/bin/tandem"],
    ["a launcher under an awkward path", `'/my dir/it'\\''s 100%/a\\b/tandem'`],
  ])("names doctor as %s runs it", (_who, launcher) => {
    const doctor = printed({ reader: "agent", launcher }, "doctor");
    const file = join(dir, "jail");
    writeFileSync(file, launcherText(doctor));
    // No plan and no command: the launcher refuses before it tries to jail anything.
    const r = spawnSync("bash", [file], { encoding: "utf8" });
    expect(r.status).toBe(125);
    expect(r.stderr).toContain(`run \`${doctor}\` (kernel guard)`);
  });
});
