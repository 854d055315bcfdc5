/** The release build's twin of clock.ts: the hook path always reads the real clock. */
export function testNow(_env: Readonly<Record<string, string | undefined>>): number | undefined {
  return undefined;
}
