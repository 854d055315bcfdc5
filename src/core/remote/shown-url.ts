/** A server URL without its user, password or token: what messages, `--json` and the store may hold. */
export function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, "$1").replace(/^[^@/:]+(:[^@/]*)?@/, "");
}
