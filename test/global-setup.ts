import { execFileSync } from "node:child_process";

/**
 * Tests drive the real bundled binary, so build it once before any test runs, with the test seams
 * (crash points, injected faults) that a release build leaves out (scripts/build.mjs).
 */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], {
    stdio: "inherit",
    env: { ...process.env, TANDEM_TEST_SEAMS: "1" },
  });
}
