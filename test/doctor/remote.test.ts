import { describe, expect, it } from "vitest";
import type { Printer } from "../../src/core/printed.js";
import type { RemoteView } from "../../src/core/remote/remote-view.js";
import { remoteFindings } from "../../src/doctor/remote-check.js";

const NOW = 1_800_000_000_000;
/** Doctor is read by a person; a devDependency's starts Tandem with npx. */
const PERSON: Printer = { reader: "person", launcher: "npx tandem" };
const unknown = {
  since: NOW - 600_000,
  error: "fatal: could not read from remote",
  fix: "check `git fetch origin`.",
};

function view(over: Partial<RemoteView>): RemoteView {
  return {
    state: "ok",
    remote: "origin",
    lastSuccess: NOW - 20_000,
    checkouts: 2,
    sessions: [],
    leases: [],
    unknown: null,
    ...over,
  };
}

describe("doctor's remote check", () => {
  it.each<[string, Partial<RemoteView>, number, string, RegExp, RegExp | null]>([
    ["sharing off", { state: "off" }, 0, "ok", /off \(remote\.enabled is false\)/, null],
    [
      "no remote",
      { state: "no-remote" },
      0,
      "ok",
      /no Git remote.*git remote add origin URL.*run `npx tandem sync`/,
      null,
    ],
    ["a good round", {}, 1, "ok", /last sync with origin 20s ago: 2 other checkout\(s\) seen/, null],
    [
      "no round yet",
      {
        state: "never",
        unknown: { since: null, error: "no sync round has run yet", fix: "run `tandem sync`." },
      },
      0,
      "info",
      /no sync round has run yet/,
      /tandem sync/,
    ],
    [
      "a failed round",
      { state: "failed", unknown },
      0,
      "problem",
      /unknown since .*: fatal: could not read/,
      /git fetch origin/,
    ],
    [
      "an old round while agents work here",
      { state: "stale", unknown },
      2,
      "problem",
      /unknown since/,
      /git fetch/,
    ],
    [
      "an old round in a quiet checkout",
      { state: "stale", unknown },
      0,
      "info",
      /unknown since/,
      /git fetch/,
    ],
  ])("%s: %s", (_why, over, liveHere, level, detail, fix) => {
    const [f, ...rest] = remoteFindings(view(over), liveHere, NOW, PERSON);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ check: "remote", level });
    expect(f!.detail).toMatch(detail);
    if (fix) expect(f!.fix).toMatch(fix);
    else expect(f!.fix).toBeUndefined();
  });
});
