import { describe, expect, it } from "vitest";
import { cookieHeader, cookieValue, decideAccess, sameToken } from "../../src/core/ui/access.js";

const policy = { port: 4321, token: "tok-123" };
const req = (o: Partial<Parameters<typeof decideAccess>[0]>) => ({
  method: "GET",
  host: "127.0.0.1:4321",
  queryToken: null,
  cookie: undefined,
  ...o,
});

describe("decideAccess", () => {
  const cases: [string, Parameters<typeof decideAccess>[0], ReturnType<typeof decideAccess>][] = [
    [
      "the token in the URL opens and sets the cookie",
      req({ queryToken: "tok-123" }),
      { ok: true, setCookie: true },
    ],
    [
      "the cookie alone opens",
      req({ cookie: "a=b; tandem-ui-4321=tok-123" }),
      { ok: true, setCookie: false },
    ],
    [
      "localhost is the same machine",
      req({ host: "localhost:4321", queryToken: "tok-123" }),
      { ok: true, setCookie: true },
    ],
  ];
  it.each(cases)("%s", (_name, r, want) => expect(decideAccess(r, policy)).toEqual(want));

  const refused: [string, Parameters<typeof decideAccess>[0], number][] = [
    ["no token at all", req({}), 401],
    ["a wrong token", req({ queryToken: "tok-124" }), 401],
    ["a token of another port's board", req({ cookie: "tandem-ui-9999=tok-123" }), 401],
    [
      "a rebound DNS name, even with the token",
      req({ host: "evil.example:4321", queryToken: "tok-123" }),
      403,
    ],
    ["the right host on another port", req({ host: "127.0.0.1:80", queryToken: "tok-123" }), 403],
    ["no Host header", req({ host: undefined, queryToken: "tok-123" }), 403],
    ["a POST, even with the token", req({ method: "POST", queryToken: "tok-123" }), 405],
    ["a DELETE", req({ method: "DELETE", cookie: "tandem-ui-4321=tok-123" }), 405],
  ];
  it.each(refused)("refuses %s", (_name, r, status) => {
    const d = decideAccess(r, policy);
    expect(d.ok).toBe(false);
    if (!d.ok) expect([d.status, d.message.length > 20]).toEqual([status, true]);
  });
});

describe("cookies and tokens", () => {
  it("reads one cookie among several, trimming spaces", () => {
    expect(cookieValue(" x=1 ;tandem-ui-1=abc; y=2", "tandem-ui-1")).toBe("abc");
    expect(cookieValue("tandem-ui-10=abc", "tandem-ui-1")).toBeNull();
    expect(cookieValue(undefined, "a")).toBeNull();
  });

  it("sets an HttpOnly, SameSite=Strict cookie named for the port", () => {
    expect(cookieHeader(policy)).toBe("tandem-ui-4321=tok-123; HttpOnly; SameSite=Strict; Path=/");
  });

  it("compares tokens whole", () => {
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abd", "abc")).toBe(false);
    expect(sameToken("ab", "abc")).toBe(false);
    expect(sameToken(null, "abc")).toBe(false);
  });
});
