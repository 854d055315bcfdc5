import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { leftoverReport, procFinder, RUN_MARK, reapLeftovers } from "./helpers/leftovers.js";
import { setAsideRegistryTls } from "./helpers/registry-tls.js";
import { useRunHome } from "./helpers/run-home.js";
import { useRunPath } from "./helpers/run-path.js";
import { useRunTmp } from "./helpers/run-tmp.js";

/**
 * Tests drive the real bundled binary, so build it once before any test runs, with the test seams
 * (crash points, injected faults) that a release build leaves out (scripts/build.mjs). Every
 * process the run starts inherits this run's mark (test/helpers/leftovers.ts); the teardown ends
 * whatever is still running at the end and fails the run, naming each process and the file that
 * started it. Temporary files go to a tmpfs when there is one with room (test/helpers/run-tmp.ts),
 * HOME is the run's own (test/helpers/run-home.ts), and PATH finds interpreters past version
 * managers' shims (test/helpers/run-path.ts).
 */
export default function setup(): () => Promise<void> {
  execFileSync(process.execPath, ["scripts/build.mjs"], {
    stdio: "inherit",
    env: { ...process.env, TANDEM_TEST_SEAMS: "1" },
  });
  setAsideRegistryTls();
  const removeTmp = useRunTmp();
  const removeHome = useRunHome();
  const removePath = useRunPath();
  const run = randomUUID();
  process.env[RUN_MARK] = run;
  return async () => {
    const left = await reapLeftovers(procFinder(run));
    removePath();
    removeHome();
    removeTmp();
    if (left.length === 0) return;
    // Vitest prints an error thrown here but still exits 0: set the exit code ourselves.
    process.exitCode = 1;
    throw new Error(leftoverReport(left, "this test run"));
  };
}
