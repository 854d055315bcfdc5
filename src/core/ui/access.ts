/**
 * Who may read the board (docs/ui.md §Security): a pure decision over one request, so the server
 * only applies it. Order matters: a foreign Host is refused before anything else is looked at, so a
 * DNS-rebound page learns nothing, not even whether its guess of the token was right.
 */

export interface AccessRequest {
  method: string;
  /** The Host header as sent, or undefined. */
  host: string | undefined;
  /** `?token=` of the request URL, or null. */
  queryToken: string | null;
  /** The Cookie header as sent, or undefined. */
  cookie: string | undefined;
}

export interface AccessPolicy {
  port: number;
  token: string;
}

export type AccessDecision =
  | { ok: true; setCookie: boolean }
  | { ok: false; status: 401 | 403 | 405; message: string };

/** One cookie per port: cookies ignore ports, and two boards on one machine must not evict each other. */
export const cookieName = (port: number): string => `tandem-ui-${port}`;

/** The Set-Cookie value: unreadable by scripts, never sent by another site's page. */
export function cookieHeader(p: AccessPolicy): string {
  return `${cookieName(p.port)}=${p.token}; HttpOnly; SameSite=Strict; Path=/`;
}

export function allowedHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Compares every character whatever the first difference, so timing says nothing about the token. */
export function sameToken(a: string | null, b: string): boolean {
  if (a === null || a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < b.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function decideAccess(req: AccessRequest, p: AccessPolicy): AccessDecision {
  if (!allowedHost(req.host, p.port))
    return {
      ok: false,
      status: 403,
      message: `Host must be 127.0.0.1:${p.port} or localhost:${p.port}; open the URL tandem ui printed`,
    };
  if (req.method !== "GET" && req.method !== "HEAD")
    return { ok: false, status: 405, message: "the board is read-only: only GET is served" };
  const byCookie = sameToken(cookieValue(req.cookie, cookieName(p.port)), p.token);
  if (byCookie) return { ok: true, setCookie: false };
  if (sameToken(req.queryToken, p.token)) return { ok: true, setCookie: true };
  return {
    ok: false,
    status: 401,
    message: "missing or wrong token: open the full URL tandem ui printed (it ends in ?token=…)",
  };
}
