import { codexLocalRulesText, codexRulesText, isOurRulesFile } from "../clients/codex/rules.js";
import type { ClientName } from "../clients/index.js";
import { CLIENTS } from "../clients/index.js";
import { launcherWords } from "../clients/launcher-words.js";
import type { ClientSpec } from "../clients/types.js";
import { GIT_HOOK_NAMES, type GitHookName } from "../core/git/hook-names.js";
import { plural } from "../core/plural.js";
import { naturalCommand } from "../core/shell/agent-command.js";
import { personLauncher } from "../core/shell/person-launcher.js";
import { claudeAllowRules, LOCAL_SETTINGS, takesAllowRules } from "./allow-rules.js";
import { type ClientFileFormat, type FileOutcome, type Mode, planClientFile } from "./client-file.js";
import { copilotFormat, copilotWanted } from "./copilot-json.js";
import { flatFormat, flatWanted } from "./cursor-json.js";
import type { Action, FilePlan } from "./file-plan.js";
import { geminiPolicyText, isOurPolicyFile, legacyIsMine, policyCommands } from "./gemini-policy.js";
import {
  type HookLaunch,
  hasRegion,
  hookCall,
  hookLaunch,
  installRegion,
  removeRegion,
} from "./git-hooks.js";
import { type InitRecord, withRecord } from "./init-record.js";
import { anchored } from "./launcher.js";
import { ownedFilePlans } from "./owned-files.js";
import { configTemplate } from "./project-config.js";
import type { WantedHook } from "./reconcile.js";
import { localFormat, nestedFormat, nestedWanted } from "./settings-json.js";
import { type FileState, type Snapshot, switchFilePaths } from "./snapshot.js";
import { switchFilePlan } from "./switch-file-plan.js";

/**
 * What init / deinit would do to each file, as data. Pure: the snapshot holds every byte read,
 * and `apply.ts` is the only place that writes, so `--check` and `--dry-run` share this exactly.
 */

export type { Action, FilePlan };

const RULES = "permissions.allow";

function tally(out: FileOutcome, mode: Mode): string {
  const rule = (c: { event: string }) => c.event === RULES;
  const hook = (c: { event: string }) => c.event !== RULES && c.event !== "version";
  const count = (kind: string, is = hook) => out.changes.filter((c) => c.kind === kind && is(c)).length;
  if (mode === "deinit") {
    const what = [
      count("remove") > 0 ? plural(count("remove"), "Tandem hook") : "",
      count("remove", rule) > 0 ? plural(count("remove", rule), "allow rule") : "",
    ]
      .filter(Boolean)
      .join(" and ");
    return out.action === "delete" ? `held nothing but ${what}` : `removed ${what}`;
  }
  if (out.action === "create")
    return [
      count("add") > 0 ? plural(count("add"), "hook") : "",
      count("add", rule) > 0 ? plural(count("add", rule), "allow rule") : "",
    ]
      .filter(Boolean)
      .join(", ");
  const parts = [
    count("add") > 0 ? `added ${plural(count("add"), "hook")}` : "",
    count("update") > 0 ? `updated ${plural(count("update"), "hook")}` : "",
    count("remove") > 0 ? `removed ${plural(count("remove"), "stale Tandem hook")}` : "",
    out.changes.some((c) => c.event === "version") ? "added version 1" : "",
    out.changes.some((c) => c.event === "settings") ? "added the client's settings keys" : "",
    out.changes.some((c) => c.event === "switch") ? "switched the client's hooks back on" : "",
    count("add", rule) > 0 ? `added ${plural(count("add", rule), "allow rule")}` : "",
    count("remove", rule) > 0 ? `removed ${plural(count("remove", rule), "stale allow rule")}` : "",
  ];
  return parts.filter(Boolean).join(", ");
}

function formatOf(
  client: ClientSpec<ClientName>,
  rules: readonly string[],
): {
  format: ClientFileFormat;
  wanted: (launcher: string) => WantedHook[];
} {
  if (client.layout === "copilot") return { format: copilotFormat, wanted: (l) => copilotWanted(client, l) };
  return client.layout === "flat"
    ? { format: flatFormat, wanted: (l) => flatWanted(client, l) }
    : {
        format: nestedFormat(
          client.name,
          rules,
          client.settingsKeys,
          client.settingsSwitches?.[client.settingsFile],
        ),
        wanted: (l) => nestedWanted(client, l),
      };
}

function settingsPlan(
  name: ClientName,
  state: FileState,
  launcher: string | null,
  mode: Mode,
  rules: readonly string[] = [],
): FilePlan {
  const client = CLIENTS[name];
  const { format, wanted } = formatOf(client, rules);
  const out: FileOutcome = planClientFile(
    client.settingsFile,
    state.text,
    launcher === null ? [] : wanted(launcher),
    format,
    mode,
  );
  return filePlan(name, state, out, mode);
}

/** Claude's uncommitted local file: only allow rules, which hold this clone's absolute path. */
function localPlan(state: FileState, rules: readonly string[], mode: Mode): FilePlan {
  const switches = CLIENTS["claude-code"].settingsSwitches?.[LOCAL_SETTINGS] ?? [];
  const out = planClientFile(LOCAL_SETTINGS, state.text, [], localFormat(rules, switches), mode);
  return filePlan("claude-code", state, out, mode);
}

function filePlan(name: ClientName, state: FileState, out: FileOutcome, mode: Mode): FilePlan {
  return {
    path: state.path,
    kind: "settings",
    client: name,
    action: out.action,
    after: out.after,
    executable: false,
    changes: out.changes.map((c) => c.detail),
    summary: out.action === "unchanged" ? "" : tally(out, mode),
    ...(out.reason === undefined ? {} : { reason: out.reason }),
  };
}

/** A Codex rules file (`.codex/rules/tandem.rules` or the local one): Tandem's whole, or none when `want` is null. */
function codexRulesPlan(state: FileState, want: string | null): FilePlan {
  return rulesFilePlan(state, want, "codex", isOurRulesFile);
}

/** A whole rules file of Tandem's (Codex's rules, Gemini's policy), or none when `want` is null. */
function rulesFilePlan(
  state: FileState,
  want: string | null,
  client: ClientName,
  isOurs: (text: string) => boolean,
): FilePlan {
  const base = { path: state.path, kind: "rules" as const, client, executable: false };
  const same = { ...base, action: "unchanged" as const, after: state.text, changes: [], summary: "" };
  const foreign = state.text !== null && !isOurs(state.text);
  // A file of the same name Tandem did not write is never removed, only refused when in the way.
  if (state.text === want || (foreign && want === null)) return same;
  if (foreign)
    return refused(
      base,
      `${state.path}: not written by Tandem; move it aside (Tandem writes its ${CLIENTS[client].label} rule there), then re-run`,
    );
  if (want === null)
    return state.text === null
      ? same
      : {
          ...base,
          action: "delete",
          after: null,
          changes: ["Tandem rule file"],
          summary: "held only Tandem's rule",
        };
  return state.text === null
    ? { ...base, action: "create", after: want, changes: ["missing"], summary: "the ritual's allow rule" }
    : {
        ...base,
        action: "update",
        after: want,
        changes: ["Tandem's rule differs"],
        summary: "rewrote the ritual's allow rule",
      };
}

/**
 * The shared policy file of an older Tandem (decision 0048): deleted when it allows only commands
 * agents here are told, else not listed at all, since it is another repository's.
 */
function legacyPlans(s: Snapshot, commands: readonly string[]): FilePlan[] {
  const state = s.geminiLegacy;
  if (!state || state.text === null || !legacyIsMine(state.text, commands)) return [];
  return [
    {
      path: state.path,
      kind: "rules",
      client: "gemini-cli",
      executable: false,
      action: "delete",
      after: null,
      changes: ["the rule file every repository shared"],
      summary: "the shared rule file of an older Tandem; this repository's rule has its own file now",
    },
  ];
}

/** A client's hook switch (ClientSpec.hookSwitch): never created or removed, only switched back on. */
function switchPlan(name: ClientName, state: FileState): FilePlan {
  const client = CLIENTS[name];
  const base = { path: state.path, kind: "switch" as const, client: name, executable: false };
  const on = state.text === null ? null : (client.hookSwitch?.switchOn(state.text) ?? null);
  // `after: null` keeps an untouched switch out of init's summary: it is the person's file.
  if (on === null) return { ...base, action: "unchanged", after: null, changes: [], summary: "" };
  const summary = `switched ${client.label}'s hooks back on`;
  return { ...base, action: "update", after: on.text, changes: on.changes, summary };
}

function refused(base: Pick<FilePlan, "path" | "kind" | "executable">, reason: string): FilePlan {
  return { ...base, action: "refuse", after: null, changes: [], summary: "", reason };
}

function gitHookInstall(name: GitHookName, state: FileState, launch: HookLaunch): FilePlan {
  const base = { path: state.path, kind: "git-hook" as const, executable: true };
  const res = installRegion(state.text, name, launch);
  if (!res.ok) return refused(base, `${state.path} ${res.reason}`);
  const to = (summary: string, change: string): FilePlan => ({
    ...base,
    action: state.text === null ? "create" : "update",
    after: res.text,
    changes: [change],
    summary,
  });
  if (state.text === null) return to("", `${name} hook missing`);
  if (res.text !== state.text) {
    const line = `\`${hookCall(name, launch)}\``;
    return hasRegion(state.text)
      ? to("updated the Tandem block", `Tandem block differs from ${line}`)
      : to("added the Tandem block", `Tandem block missing (${line})`);
  }
  if (!state.executable) return to("made it executable", "not executable");
  return { ...base, action: "unchanged", after: state.text, changes: [], summary: "" };
}

function gitHookRemove(state: FileState): FilePlan {
  const base = { path: state.path, kind: "git-hook" as const, executable: true };
  const res = removeRegion(state.text);
  if (!res.ok) return refused(base, `${state.path} ${res.reason}`);
  if (res.text === state.text)
    return { ...base, action: "unchanged", after: state.text, changes: [], summary: "" };
  return res.text === null
    ? {
        ...base,
        action: "delete",
        after: null,
        changes: ["Tandem block"],
        summary: "held nothing but the Tandem block",
      }
    : {
        ...base,
        action: "update",
        after: res.text,
        changes: ["Tandem block"],
        summary: "removed the Tandem block",
      };
}

/** The repository's git hooks, then each submodule's (git runs a submodule's own for a commit in it). */
function gitHookPlans(s: Snapshot, plan: (name: GitHookName, state: FileState) => FilePlan): FilePlan[] {
  if (!s.gitHooks) return [];
  const dirs = [s.gitHooks, ...(s.submoduleHooks ?? [])];
  return dirs.flatMap((hooks) => GIT_HOOK_NAMES.map((n) => plan(n, hooks.files[n])));
}

function clientsOf(s: Snapshot): ClientName[] {
  return (Object.keys(CLIENTS) as ClientName[]).filter((n) => s.settings[n] !== undefined);
}

/** A `files`-layout client's hook files as read, its settings file first. */
function hookFileStates(s: Snapshot, n: ClientName): FileState[] {
  return [s.settings[n]!, ...(s.moreHookFiles?.[n] ?? [])];
}

function configPlan(state: FileState, mode: Mode, record?: InitRecord): FilePlan {
  const base = { path: state.path, kind: "config" as const, executable: false, summary: "" };
  if (state.text === null) {
    const after = configTemplate(record);
    return mode === "init"
      ? { ...base, action: "create", after, changes: ["missing"] }
      : { ...base, action: "unchanged", after: null, changes: [] };
  }
  // Only the `init` record is ever edited: everything else in it is the project's own settings.
  const edit = mode === "init" && record ? withRecord(state.text, record) : null;
  if (edit)
    return {
      ...base,
      action: "update",
      after: edit.text,
      changes: [edit.change],
      summary: "recorded how init ran",
    };
  return { ...base, action: mode === "init" ? "unchanged" : "keep", after: state.text, changes: [] };
}

/**
 * `record`, when given, is written into the config so later runs wire the same way. `agent` is the
 * command agents are told (src/wiring/agent-launch.ts; by default the launcher as their shell runs
 * it): the allow rules name exactly that.
 */
export function planInit(
  s: Snapshot,
  launcher: string,
  record?: InitRecord,
  agent = naturalCommand(launcher, s.root),
): FilePlan[] {
  const rules = claudeAllowRules(launcher, agent, s.root);
  const gitLaunch = hookLaunch(agent, naturalCommand(launcher, s.root), s.root);
  // What a hook file tells the agent to ask its person to run (decision 0051).
  const person = personLauncher({ text: launcher, words: launcherWords(launcher) }, s.root);
  return [
    ...clientsOf(s).flatMap((n) =>
      CLIENTS[n].layout === "files"
        ? ownedFilePlans(
            CLIENTS[n],
            hookFileStates(s, n),
            { launcher: anchored(launcher, n, s.root), person },
            "init",
          )
        : [
            settingsPlan(
              n,
              s.settings[n]!,
              anchored(launcher, n, s.root),
              "init",
              takesAllowRules(n) ? rules.project : [],
            ),
          ],
    ),
    ...(Object.entries(s.switches ?? {}) as [ClientName, FileState][]).map(([n, f]) => switchPlan(n, f)),
    ...(Object.entries(s.switchFiles ?? {}) as [ClientName, FileState[]][]).flatMap(([n, files]) =>
      files.map((f, i) => switchFilePlan(n, f, switchFilePaths(n)[i]!)),
    ),
    ...(s.claudeLocal ? [localPlan(s.claudeLocal, rules.local, "init")] : []),
    ...(s.codexRules ? [codexRulesPlan(s.codexRules, codexRulesText(launcher))] : []),
    ...(s.codexLocal ? [codexRulesPlan(s.codexLocal, codexLocalRulesText(launcher, agent))] : []),
    ...(s.geminiPolicy
      ? [
          rulesFilePlan(
            s.geminiPolicy,
            geminiPolicyText(launcher, s.root, agent),
            "gemini-cli",
            isOurPolicyFile,
          ),
        ]
      : []),
    ...legacyPlans(s, policyCommands(launcher, s.root, agent)),
    configPlan(s.config, "init", record),
    // Git hooks start Tandem as agents' shells do (decision 0049), then as the person's terminal does.
    ...gitHookPlans(s, (n, state) => gitHookInstall(n, state, gitLaunch)),
  ];
}

/**
 * Removes exactly what init adds, and keeps the project config. `commands` are those agents here
 * are told: the shared policy file of an older Tandem goes only when it allows nothing else.
 */
export function planDeinit(s: Snapshot, commands: readonly string[] = []): FilePlan[] {
  return [
    ...clientsOf(s).flatMap((n) =>
      CLIENTS[n].layout === "files"
        ? ownedFilePlans(CLIENTS[n], hookFileStates(s, n), null, "deinit")
        : [settingsPlan(n, s.settings[n]!, null, "deinit")],
    ),
    ...(s.claudeLocal ? [localPlan(s.claudeLocal, [], "deinit")] : []),
    ...(s.codexRules ? [codexRulesPlan(s.codexRules, null)] : []),
    ...(s.codexLocal ? [codexRulesPlan(s.codexLocal, null)] : []),
    ...(s.geminiPolicy ? [rulesFilePlan(s.geminiPolicy, null, "gemini-cli", isOurPolicyFile)] : []),
    ...legacyPlans(s, commands),
    configPlan(s.config, "deinit"),
    ...gitHookPlans(s, (_n, state) => gitHookRemove(state)),
  ];
}

export function changed(plans: readonly FilePlan[]): FilePlan[] {
  return plans.filter((p) => p.action === "create" || p.action === "update" || p.action === "delete");
}
