import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { clientEnv, runProcess } from "../e2e/harness/spawn.js";
import { readProcs } from "../helpers/leftovers.js";
import { waitFor } from "../server/support.js";

/** Processes whose command line holds `tag` (a unique sleep length). */
const withTag = (tag: string) => readProcs().filter((p) => p.cmdline.includes(tag) && p.environ.length > 0);

/**
 * A test vitest times out leaves its client run pending (issue 42: `opencode run` lived on for
 * 1 h 40 min). The harness kills the run's process group when the test ends, whoever ended it.
 */
describe.runIf(process.platform === "linux")("a client run its test abandoned", () => {
  const tag = `600.${randomInt(1e6, 1e7)}`;

  it("is started and left pending: a shell and its background child", async () => {
    void runProcess("sh", ["-c", `sleep ${tag} & wait`], {
      cwd: process.cwd(),
      env: clientEnv(),
      timeoutMs: 3_600_000,
    });
    const both = await waitFor("the shell and its child", () =>
      withTag(tag).length >= 2 ? withTag(tag) : null,
    );
    expect(both.length).toBe(2);
  });

  it("is killed, child and all, once that test ended", async () => {
    await waitFor("the abandoned group to be gone", () => withTag(tag).length === 0);
    expect(withTag(tag)).toEqual([]);
  });
});
