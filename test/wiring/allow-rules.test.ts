import { describe, expect, it } from "vitest";
import { claudeAllowRules, isTandemRule, reconcileRules } from "../../src/wiring/allow-rules.js";
import { applyJsonOps, parseJson } from "../../src/wiring/json-edit.js";
import { isObject } from "../../src/wiring/reconcile.js";

const rules = (cmd: string) => [`Bash(${cmd} task:*)`, `Bash(${cmd} status:*)`];

const REPO = "/r/.git/tandem/bin/tandem";

describe("choosing Claude's allow rules for the command agents are told", () => {
  it.each([
    ["a PATH launcher", "tandem", "tandem", { project: rules("tandem"), local: [] }],
    ["npx", "npx tandem", "npx tandem", { project: rules("npx tandem"), local: [] }],
    [
      "a pinned launcher, already machine-bound",
      "'/usr/bin/node' '/opt/t/tandem.cjs'",
      "'/usr/bin/node' '/opt/t/tandem.cjs'",
      { project: rules("'/usr/bin/node' '/opt/t/tandem.cjs'"), local: [] },
    ],
    [
      "a devDependency: exact, in the local file",
      "node_modules/.bin/tandem",
      "/r/node_modules/.bin/tandem",
      { project: [], local: rules("/r/node_modules/.bin/tandem") },
    ],
    [
      "a devDependency under a path with a space, quoted as agents are told it",
      "node_modules/.bin/tandem",
      "'/a b/node_modules/.bin/tandem'",
      { project: [], local: rules("'/a b/node_modules/.bin/tandem'") },
    ],
    [
      "a PATH launcher a login shell cannot find: the repository launcher in the local file, the committed rules unchanged",
      "tandem",
      REPO,
      { project: rules("tandem"), local: rules(REPO) },
    ],
  ])("%s", (_name, launcher, agent, want) => {
    expect(claudeAllowRules(launcher, agent, "/r")).toEqual(want);
  });

  it("never writes a rule that starts with a wildcard, which would approve any command", () => {
    const cases = [
      ["tandem", "tandem"],
      ["node_modules/.bin/tandem", "/r/node_modules/.bin/tandem"],
      ["'/usr/bin/node' '/t/tandem.cjs'", "'/usr/bin/node' '/t/tandem.cjs'"],
      ["tandem", REPO],
    ];
    for (const [l, a] of cases) {
      const r = claudeAllowRules(l!, a!, "/r");
      for (const rule of [...r.project, ...r.local]) expect(rule).not.toMatch(/^Bash\(\*/);
    }
  });

  it("recognises a rule for the repository launcher as Tandem's, so a later init can replace it", () => {
    for (const rule of rules(REPO)) expect(isTandemRule(rule)).toBe(true);
  });
});

describe("recognising Tandem's rules by their shape", () => {
  it.each([
    ["Bash(tandem task:*)", true],
    ["Bash(tandem status:*)", true],
    ["Bash(npx tandem status:*)", true],
    ["Bash(/r/node_modules/.bin/tandem task:*)", true],
    ["Bash('/a b/node_modules/.bin/tandem' status:*)", true],
    ["Bash('/usr/bin/node' '/opt/t/tandem.cjs' task:*)", true],
    ["Bash(*/node_modules/.bin/tandem task *)", true],
    ["Bash(tandem status)", true],
    ["Bash(ls)", false],
    ["Bash(tandem:*)", false],
    ["Bash(tandem claims:*)", false],
    ["Bash(mytandem task:*)", false],
    ["Bash(tandem-dev status:*)", false],
    ["Bash(tandem task:*) ", false],
    ["Read(tandem status:*)", false],
    [42, false],
  ])("%s → %s", (rule, ours) => {
    expect(isTandemRule(rule)).toBe(ours);
  });
});

/** Applies reconcileRules to a whole settings text, as the planner does. */
function edit(text: string, wanted: string[]): { text: string; changes: string[] } | string {
  const doc = parseJson("s.json", text);
  if (!doc.ok || !isObject(doc.value)) throw new Error("bad fixture");
  const r = reconcileRules(doc.value.permissions, wanted);
  if (!r.ok) return r.reason;
  return { text: applyJsonOps(text, r.ops), changes: r.changes.map((c) => `${c.kind} ${c.detail}`) };
}

const TANDEM = rules("tandem");

describe("editing permissions.allow", () => {
  it.each([
    [
      "adds both rules to a file without permissions",
      '{"hooks": {}}',
      TANDEM,
      { hooks: {}, permissions: { allow: TANDEM } },
    ],
    [
      "appends after the user's rules, in their order",
      '{"permissions": {"allow": ["Bash(ls)", "Read(*)"], "deny": ["Bash(rm:*)"]}}',
      TANDEM,
      { permissions: { allow: ["Bash(ls)", "Read(*)", ...TANDEM], deny: ["Bash(rm:*)"] } },
    ],
    [
      "adds only the missing one",
      '{"permissions": {"allow": ["Bash(tandem status:*)"]}}',
      TANDEM,
      { permissions: { allow: ["Bash(tandem status:*)", "Bash(tandem task:*)"] } },
    ],
    [
      "replaces an old launcher's rules and drops duplicates",
      `{"permissions": {"allow": ["Bash(npx tandem task:*)", "Bash(ls)", "Bash(tandem task:*)", "Bash(tandem task:*)"]}}`,
      TANDEM,
      { permissions: { allow: ["Bash(ls)", "Bash(tandem task:*)", "Bash(tandem status:*)"] } },
    ],
    [
      "removes only Tandem's rules for deinit",
      JSON.stringify({ permissions: { allow: ["Bash(ls)", ...TANDEM] } }),
      [],
      { permissions: { allow: ["Bash(ls)"] } },
    ],
    [
      "removes an allow list that held nothing else, keeping permissions",
      `{"permissions": {"allow": ${JSON.stringify(TANDEM)}, "deny": []}}`,
      [],
      { permissions: { deny: [] } },
    ],
    [
      "leaves a user's empty allow list alone",
      '{"permissions": {"allow": []}}',
      [],
      { permissions: { allow: [] } },
    ],
  ])("%s", (_name, text, wanted, want) => {
    const out = edit(text, wanted);
    if (typeof out === "string") throw new Error(out);
    expect(JSON.parse(out.text)).toEqual(want);
    // A second pass has nothing left to do.
    const again = edit(out.text, wanted);
    expect(typeof again === "string" ? again : again.changes).toEqual([]);
  });

  it("keeps comments and the layout of every line it does not touch", () => {
    const text =
      '{\n  // team rules\n  "permissions": {\n    "allow": [\n      // listing is fine\n      "Bash(ls)"\n    ]\n  }\n}\n';
    const out = edit(text, TANDEM);
    if (typeof out === "string") throw new Error(out);
    expect(out.text).toContain("// team rules");
    expect(out.text).toContain('// listing is fine\n      "Bash(ls)",');
    const back = edit(out.text, []);
    if (typeof back === "string") throw new Error(back);
    expect(back.text).toBe(text);
  });

  it("says what is missing and what is stale", () => {
    const out = edit('{"permissions": {"allow": ["Bash(npx tandem task:*)"]}}', ["Bash(tandem task:*)"]);
    if (typeof out === "string") throw new Error(out);
    expect(out.changes).toEqual([
      "remove Tandem rule Bash(npx tandem task:*) is not wanted",
      "add allow rule Bash(tandem task:*) missing",
    ]);
  });

  it.each([
    ["permissions that are not an object", '{"permissions": []}', /"permissions" is not an object/],
    [
      "an allow that is not an array",
      '{"permissions": {"allow": "Bash"}}',
      /"permissions.allow" is not an array/,
    ],
  ])("refuses %s", (_name, text, reason) => {
    expect(edit(text, TANDEM)).toMatch(reason);
  });
});
