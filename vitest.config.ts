import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Timeouts only catch a hang: tests assert behaviour, never elapsed time, and a busy 2-core
    // machine runs the slowest real-client and git tests several times slower than a quiet one. One
    // bound for every test (none sets a shorter one); waits inside tests stretch with the machine's
    // load (test/helpers/patience.ts).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // Vitest's default on a 2-core machine is one worker; most files wait on git, clients and child
    // processes, so two halve the wall time (a full run with two passed under a load average of 5).
    maxWorkers: 2,
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-env.ts"],
  },
});
