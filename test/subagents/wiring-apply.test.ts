import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type GateFacts, gates } from "../../src/subagents/apply/preflight.js";
import { PIN } from "../helpers/cli.js";
import { cli } from "../helpers/in-process-cli.js";
import { g, writeFiles } from "../helpers/repo.js";
import {
  expectOk,
  finishedChild,
  runScriptHere,
  type SubRepo,
  subHere,
  subRepo,
  targetState,
} from "./sub-fixture.js";

/** A repository wired by `tandem init` (its hook settings and config committed), to apply into. */
async function wiredRepo(): Promise<SubRepo> {
  const s = subRepo();
  expectOk(await cli(["init", ...PIN, "--no-git-hooks"], { cwd: s.repo }));
  g(s.repo, "add", ".claude", ".codex", ".cursor", ".tandem");
  g(s.repo, "commit", "-qm", "wire tandem");
  return { ...s, base: g(s.repo, "rev-parse", "HEAD").trim() };
}

/**
 * The child commits Claude's settings with no PreToolUse hooks left, and leaves the project
 * config with the stop ritual off uncommitted: both the commit series and the patch carry wiring.
 */
const SWITCH_OFF = [
  `printf '{"hooks":{"PreToolUse":[]}}\\n' > .claude/settings.json`,
  "git commit -qam 'quiet the hooks'",
  `printf '{"agents":{"stopRitual":"off"}}\\n' > .tandem/config.jsonc`,
  "echo fine > ordinary.txt",
].join(" && ");

const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");

interface OutcomeJson {
  ok: boolean;
  outcome: string;
  paths: string[];
  warnings: string[];
  message: string;
}

describe("sub apply and Tandem's wiring", () => {
  it("refuses an artifact that empties the PreToolUse hooks and turns the stop ritual off, touching nothing", async () => {
    const s = await wiredRepo();
    const { json } = await runScriptHere(s.repo, SWITCH_OFF);
    const before = targetState(s.repo, s.base);
    const settings = read(s.repo, ".claude/settings.json");

    const r = await subHere(s.repo, ["apply", json.id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(".claude/settings.json (Claude Code's hooks)");
    expect(r.stderr).toContain(".tandem/config.jsonc (Tandem's project configuration)");
    expect(r.stderr).toMatch(/--allow-config/);
    expect(r.stderr).toMatch(/nothing was applied/);
    expect(r.stderr).not.toContain("ordinary.txt");
    expect(targetState(s.repo, s.base)).toEqual(before);
    expect(read(s.repo, ".claude/settings.json")).toBe(settings);

    const j = JSON.parse((await subHere(s.repo, ["apply", json.id, "--json"])).stdout) as OutcomeJson;
    expect(j).toMatchObject({ ok: false, outcome: "refused" });
    expect(j.paths).toEqual([".claude/settings.json", ".tandem/config.jsonc"]);
  });

  it("lists the wiring changes in the dry run, which would refuse without --allow-config", async () => {
    const s = await wiredRepo();
    const { json } = await runScriptHere(s.repo, SWITCH_OFF);
    const before = targetState(s.repo, s.base);

    const dry = await subHere(s.repo, ["apply", json.id, "--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(/^\S+ → \S+: dry run: the artifact changes Tandem's wiring/);
    expect(dry.stderr).toContain(".claude/settings.json");
    expect(dry.stderr).toContain(".tandem/config.jsonc");
    expect(dry.stderr).toMatch(/refuses them without --allow-config/);
    expect(dry.stderr).not.toMatch(/would apply cleanly/);

    const allowed = await subHere(s.repo, ["apply", json.id, "--dry-run", "--allow-config"]);
    expectOk(allowed);
    expect(allowed.stdout).toMatch(/would apply cleanly/);
    expect(allowed.stdout).toMatch(
      /warning: this artifact changes Tandem's wiring, accepted with --allow-config/,
    );
    expect(allowed.stdout).toContain(".tandem/config.jsonc");
    expect(targetState(s.repo, s.base)).toEqual(before);
  });

  it("lists the wiring changes in sub show, and nothing for a sub-agent that leaves it alone", async () => {
    const s = await wiredRepo();
    const wiring = (await runScriptHere(s.repo, SWITCH_OFF)).json;
    const plain = (await runScriptHere(s.repo, "echo fine > ordinary.txt")).json;

    const shown = await subHere(s.repo, ["show", wiring.id]);
    expectOk(shown);
    expect(shown.stdout).toMatch(
      /^WIRING +changes Tandem's wiring: \.claude\/settings\.json \(Claude Code's hooks\), \.tandem\/config\.jsonc \(Tandem's project configuration\); `sub apply` refuses it without --allow-config$/m,
    );
    const j = JSON.parse((await subHere(s.repo, ["show", wiring.id, "--json"])).stdout) as {
      wiring: { changes: { path: string }[]; error: string | null };
    };
    expect(j.wiring.changes.map((c) => c.path)).toEqual([".claude/settings.json", ".tandem/config.jsonc"]);
    expect(j.wiring.error).toBeNull();

    expect((await subHere(s.repo, ["show", plain.id])).stdout).not.toMatch(/wiring/i);
  });

  it("applies the wiring changes with --allow-config, and says so", async () => {
    const s = await wiredRepo();
    const { json } = await runScriptHere(s.repo, SWITCH_OFF);
    const r = await subHere(s.repo, ["apply", json.id, "--allow-config"]);
    expectOk(r);
    expect(r.stdout).toMatch(/warning: this artifact changes Tandem's wiring, accepted with --allow-config/);
    expect(JSON.parse(read(s.repo, ".claude/settings.json"))).toEqual({ hooks: { PreToolUse: [] } });
    expect(read(s.repo, ".tandem/config.jsonc")).toContain('"stopRitual":"off"');
    expect(read(s.repo, "ordinary.txt")).toBe("fine\n");
  });

  it("refuses a change to a git hook where core.hooksPath keeps them in the work tree", async () => {
    const s = await wiredRepo();
    g(s.repo, "config", "core.hooksPath", ".githooks");
    writeFiles(s.repo, { ".githooks/README": "hooks\n" });
    g(s.repo, "add", ".githooks");
    g(s.repo, "commit", "-qm", "hooks dir");
    const { json } = await runScriptHere(s.repo, "printf '#!/bin/sh\\nexit 0\\n' > .githooks/pre-commit");
    const r = await subHere(s.repo, ["apply", json.id, "--json"]);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as OutcomeJson).paths).toEqual([".githooks/pre-commit"]);
  });

  it("does not auto-apply a child's wiring changes after sub run --apply, unless --allow-config is given", async () => {
    const s = await wiredRepo();
    const settings = read(s.repo, ".claude/settings.json");
    const refused = await runScriptHere(s.repo, SWITCH_OFF, ["--apply"]);
    expect(refused.res.code).toBe(1);
    expect(refused.json.applied).toMatchObject({ ok: false, outcome: "refused" });
    expect(read(s.repo, ".claude/settings.json")).toBe(settings);

    const applied = await runScriptHere(s.repo, SWITCH_OFF, ["--apply", "--allow-config"]);
    expectOk(applied.res);
    expect(JSON.parse(read(s.repo, ".claude/settings.json"))).toEqual({ hooks: { PreToolUse: [] } });
  });
});

const gate = (over: Partial<GateFacts>): GateFacts => ({
  running: false,
  artifactError: null,
  uncaptured: [],
  ackUncaptured: false,
  touched: [".claude/settings.json", "src/a.ts"],
  only: null,
  worktree: "/w/child",
  wiring: [{ path: ".claude/settings.json", what: "Claude Code's hooks" }],
  allowConfig: false,
  subId: "sub_1",
  child: finishedChild("/w/child"),
  ...over,
});

describe("the wiring gate of every apply", () => {
  it.each<[string, Partial<GateFacts>, RegExp]>([
    ["refuses wiring without --allow-config", {}, /changes Tandem's wiring: \.claude\/settings\.json/],
    ["names where to review it", {}, /tandem sub show sub_1`, or git diff in \/w\/child/],
    ["still says a running child comes first", { running: true }, /still running/],
    [
      "refuses wiring before uncaptured work is even considered",
      { uncaptured: [{ reason: "embedded-repository", paths: ["x"] }], ackUncaptured: true },
      /Tandem's wiring/,
    ],
  ])("%s", (_name, over, reason) => {
    const v = gates(gate(over));
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toMatch(reason);
  });

  it("lets --allow-config through, with a warning naming the files", () => {
    const v = gates(gate({ allowConfig: true }));
    expect(v).toEqual({
      ok: true,
      warnings: [
        "this artifact changes Tandem's wiring, accepted with --allow-config: .claude/settings.json (Claude Code's hooks).",
      ],
    });
  });

  it("passes an artifact without wiring, warning about nothing", () => {
    expect(gates(gate({ wiring: [] }))).toEqual({ ok: true, warnings: [] });
  });

  it("refuses the wiring paths, for --json", () => {
    const v = gates(gate({}));
    expect(v.ok ? [] : v.paths).toEqual([".claude/settings.json"]);
  });
});
