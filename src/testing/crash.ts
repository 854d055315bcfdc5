/**
 * Fault injection for tests (docs/product.md §10): when TANDEM_TEST_CRASH_AT names this
 * point, the process dies at once — SIGKILL, exit status 137, no cleanup, no
 * rollback handlers — exactly like a crash. Inert when the variable is unset.
 */
export function crashPoint(
  point: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): void {
  if (env.TANDEM_TEST_CRASH_AT === point) process.kill(process.pid, "SIGKILL");
}

/**
 * Fault injection for the resident server's tests: `serve:uncaught` throws an error nothing
 * catches, once the server runs, as a bug would. Inert when the variable is unset.
 */
export function injectFault(env: Readonly<Record<string, string | undefined>>): void {
  if (env.TANDEM_TEST_CRASH_AT !== "serve:uncaught") return;
  setTimeout(() => {
    throw new Error("injected fault (TANDEM_TEST_CRASH_AT=serve:uncaught)");
  }, 0);
}
