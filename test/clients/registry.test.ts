/**
 * Issue 27 §1: a client is one folder and one registry entry, and every list of clients is derived
 * from the registry. Each case below reads one derived list through the part that uses it (the
 * real CLI where it has one) and checks that every registered client is in it, so a list that is
 * spelled out again, and forgets the next client, fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientsTable } from "../../src/clients/docs-table.js";
import { CLIENT_NAMES, CLIENTS } from "../../src/clients/index.js";
import { isOwnedHookFile } from "../../src/clients/owned-file.js";
import { forwardedEnv } from "../../src/config/forwarded-env.js";
import { PROJECT_WIRING } from "../../src/config/project-wiring.js";
import { ALLOWED, configFileSchema } from "../../src/config/schema.js";
import { checkEventData } from "../../src/store/events/schemas.js";
import { launchLine, parseClient } from "../../src/subagents/lifecycle/launch.js";
import { configTemplate } from "../../src/wiring/project-config.js";
import { PIN, tandem } from "../helpers/cli.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { initRepo, tempDir } from "../helpers/repo.js";

const started = (client: string) => ({
  client,
  nativeId: "n1",
  name: "s1",
  kind: "session",
  parentId: null,
  agentPid: null,
  agentPidStart: null,
  cwd: null,
});

const subCreated = (client: string) => ({
  id: "sub-1",
  name: null,
  client,
  parentSession: null,
  childSession: null,
  origin: "/repo",
  worktree: "/wt",
  branch: "tandem/sub-1",
  base: "0".repeat(40),
  baseRef: "HEAD",
  args: ["fix it"],
  log: "/log",
  runnerPid: null,
  runnerStart: null,
});

describe("every registered client is in every list derived from the registry", () => {
  it("the hook entry's usage line names every client", () => {
    const res = tandem(["hook"], { cwd: tempDir() });
    expect(res.code).toBe(2);
    for (const name of CLIENT_NAMES) expect(res.stderr).toContain(name);
  });

  it("sub run --help names every client, and sub run accepts each with its folder's launch line", () => {
    const help = tandem(["sub", "run", "--help"], { cwd: tempDir() }).stdout.replace(/\s+/g, " ");
    for (const name of CLIENT_NAMES) {
      expect(help).toContain(name);
      expect(parseClient(name)).toBe(name);
      expect(launchLine(name, ["fix it"]).command).toBe(CLIENTS[name].subagent.command);
    }
  });

  it("the config file accepts each client in init.clients and subagents.clients, and its messages name it", () => {
    for (const name of CLIENT_NAMES) {
      const parsed = configFileSchema().safeParse({
        init: { clients: [name] },
        subagents: { clients: { [name]: { command: "x" } } },
      });
      expect(parsed.success, name).toBe(true);
      expect(ALLOWED["init.clients"]).toContain(`"${name}"`);
      expect(ALLOWED["init.clients[]"]).toContain(`"${name}"`);
    }
    expect(configFileSchema().safeParse({ init: { clients: ["not-a-client"] } }).success).toBe(false);
  });

  it("the config template lists each client among the sub-agent launch keys", () => {
    // The comment wraps at 100 columns: its lines are read as one.
    const text = configTemplate({ clients: [...CLIENT_NAMES], gitHooks: true }).replace(
      /\n[ \t]*(?:\/\/[ \t]*)+/g,
      " ",
    );
    const keys = /keys: (.*?)\./.exec(text)?.[1] ?? "";
    for (const name of CLIENT_NAMES) expect(keys.split(", ")).toContain(name);
  });

  it("the event schemas accept each client on session.started and subagent.created", () => {
    for (const name of CLIENT_NAMES) {
      expect(checkEventData("session.started", started(name))).toBeNull();
      expect(checkEventData("subagent.created", subCreated(name))).toBeNull();
    }
    expect(checkEventData("session.started", started("not-a-client"))).toMatch(/client/);
  });

  it("init wires every client's hooks file, and agents may not edit any of its wiring files", () => {
    const repo = initRepo(tempDir());
    const res = tandem(["init", ...PIN, "--dry-run", "--json", "--no-git-hooks"], { cwd: repo });
    expect(res.code, res.stderr).toBe(0);
    const paths = (JSON.parse(res.stdout) as { files: { path: string }[] }).files.map((f) => f.path);
    const protectedFiles = PROJECT_WIRING.map((w) => w.file);
    for (const c of Object.values(CLIENTS)) {
      expect(
        paths.some((p) => p.endsWith(c.settingsFile)),
        c.name,
      ).toBe(true);
      expect(protectedFiles).toContain(c.settingsFile);
      for (const w of c.wiring) expect(protectedFiles).toContain(w.file);
      // A client whose hooks are whole files: init writes each, its settings file first, each marked.
      const files = c.hookFiles?.("tandem", "tandem") ?? [];
      expect(c.layout === "files", `${c.name}: layout "files" goes with hookFiles`).toBe(files.length > 0);
      if (files.length > 0) expect(files[0]!.path, c.name).toBe(c.settingsFile);
      for (const f of files) {
        expect(
          paths.some((p) => p.endsWith(f.path)),
          f.path,
        ).toBe(true);
        expect(isOwnedHookFile(f.text), f.path).toBe(true);
      }
    }
  });

  it("the thin client forwards each client's session and UI variables, so the server tells its agents apart", () => {
    const forwarded = forwardedEnv();
    for (const c of Object.values(CLIENTS)) {
      const vars = [...c.sessionEnv, ...(c.ui?.kind === "env-pid" ? [c.ui.variable] : [])];
      for (const v of vars)
        expect(forwarded, `${c.name}: ${v} is not forwarded (src/config/forwarded-env.ts)`).toContain(v);
    }
  });

  it("each client has a README for its recorded payloads", () => {
    for (const name of CLIENT_NAMES) expect(existsSync(join(FIXTURES, name, "README.md")), name).toBe(true);
  });

  it("the docs table in docs/clients.md is the one generated from the registry", () => {
    const doc = readFileSync(join(process.cwd(), "docs", "clients.md"), "utf8");
    expect(doc).toContain(clientsTable());
    const readme = readFileSync(join(process.cwd(), "README.md"), "utf8");
    expect(readme).toContain(`--client ${CLIENT_NAMES.join("|")}`);
  });
});
