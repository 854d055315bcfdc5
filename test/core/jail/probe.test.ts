import { describe, expect, it } from "vitest";
import { type ProbeFacts, probeVerdict } from "../../../src/core/jail/probe.js";
import { PLAIN, type Printer } from "../../../src/core/printed.js";

const base: ProbeFacts = {
  platform: "linux",
  missing: [],
  trial: { code: 0, stderr: "", readOnly: true },
  sysctl: { maxUserNs: "15000", unprivClone: null, apparmorRestrict: null },
};

describe("probe verdict", () => {
  it("macOS with sandbox-exec: the seatbelt guards what does not move", () => {
    expect(probeVerdict({ ...base, platform: "darwin", trial: null }, PLAIN)).toEqual({
      ok: true,
      seatbelt: true,
    });
    expect(probeVerdict(base, PLAIN)).toEqual({ ok: true });
  });

  const cases: [string, Partial<ProbeFacts>, RegExp | null][] = [
    ["a trial that refused the write", {}, null],
    [
      "macOS without sandbox-exec on PATH",
      { platform: "darwin", missing: ["sandbox-exec"], trial: null },
      /sandbox-exec not found/,
    ],
    ["Windows", { platform: "win32", trial: null }, /needs Linux or macOS; this is win32/],
    ["util-linux missing", { missing: ["unshare", "setpriv"], trial: null }, /unshare, setpriv not found/],
    [
      "user namespaces off",
      {
        trial: { code: 1, stderr: "unshare: Operation not permitted", readOnly: false },
        sysctl: { maxUserNs: "0", unprivClone: null, apparmorRestrict: null },
      },
      /max_user_namespaces = 0/,
    ],
    [
      "Debian's switch off",
      {
        trial: { code: 1, stderr: "", readOnly: false },
        sysctl: { maxUserNs: "9", unprivClone: "0", apparmorRestrict: null },
      },
      /unprivileged_userns_clone = 0/,
    ],
    [
      "Ubuntu's AppArmor restriction",
      {
        trial: { code: 1, stderr: "", readOnly: false },
        sysctl: { maxUserNs: "9", unprivClone: null, apparmorRestrict: "1" },
      },
      /AppArmor/,
    ],
    [
      "a container refusing the mount",
      { trial: { code: 125, stderr: "mount: permission denied\nmore", readOnly: false } },
      /trial jail failed: mount: permission denied \(/,
    ],
    [
      "a write that got through",
      { trial: { code: 0, stderr: "", readOnly: false } },
      /did not refuse a write/,
    ],
  ];
  it.each(cases)("%s", (_name, over, why) => {
    const v = probeVerdict({ ...base, ...over }, PLAIN);
    if (why === null) expect(v).toEqual({ ok: true });
    else {
      expect(v.ok).toBe(false);
      if (!v.ok) {
        expect(v.why).toMatch(why);
        expect(v.fix.length).toBeGreaterThan(10);
      }
    }
  });
  it("spells the doctor it advises for the reader: a devDependency's person runs npx tandem", () => {
    const person: Printer = { reader: "person", launcher: "npx tandem" };
    const v = probeVerdict({ ...base, trial: { code: 0, stderr: "", readOnly: false } }, person);
    expect(v.ok ? "" : v.fix).toContain("`npx tandem doctor`");
  });
});
