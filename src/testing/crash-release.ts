/**
 * The release build's twin of crash.ts (scripts/build.mjs links it unless TANDEM_TEST_SEAMS=1):
 * the same calls, doing nothing, so no variable can make an installed Tandem crash on purpose.
 */
export function crashPoint(_point: string, _env?: Readonly<Record<string, string | undefined>>): void {}

export function injectFault(_env: Readonly<Record<string, string | undefined>>): void {}
