import type { VerdictRule } from "./rule-ids.js";

/** What Tandem does with an event, whatever the client calls it. */
export type HookKind =
  | "session-start"
  | "prompt"
  | "pre-tool"
  | "post-tool"
  | "stop"
  | "session-end"
  | "other";

/** One hook a client module registers: the native event, its CLI name, and an optional matcher. */
export interface WiredEvent {
  native: string;
  /** Kebab-case form used in `tandem hook <client> <event>` (docs/product.md §11). */
  cli: string;
  kind: HookKind;
  matcher?: string;
  /** Seconds; clients kill SessionEnd hooks after 1.5–3 s regardless. */
  timeout?: number;
  /** Codex: what its hook review and spinner show for the entry (without one: "Unnamed hook"). */
  statusMessage?: string;
  /** Gemini: the handler's name, shown when it first meets project hooks (docs/clients.md §13.1). */
  name?: string;
}

export interface ToolCall {
  name: string;
  input: unknown;
  useId: string | null;
  /** Where the call runs when the client names a directory of its own (Gemini's `dir_path`). */
  cwd?: string;
  /** Post-tool only: what the tool printed, when the payload carries it (src/clients/payload.ts). */
  output?: string;
}

/** The one normalized shape every client payload is parsed into. */
export interface HookInput {
  /** The registered client's name (`ClientName` in ./index.ts, which derives it from the registry). */
  client: string;
  kind: HookKind;
  event: string;
  sessionId: string;
  turnId: string | null;
  /** Where the agent works (payload `cwd`, Cursor `workspace_roots[0]`). */
  cwd: string | null;
  tool: ToolCall | null;
  prompt: string | null;
  stopHookActive: boolean;
  lastAssistantMessage: string | null;
  source: string | null;
}

export type ParseResult =
  | { ok: true; input: HookInput }
  | { ok: false; skip: true; reason: string }
  | { ok: false; skip: false; error: string };

/** A decision as data; each client renders it into its own wire shape. */
export interface Verdict {
  allow: boolean;
  /** The rule that decided a refusal or block (src/clients/rule-ids.ts); null when nothing objected. */
  rule: VerdictRule | null;
  reason: string | null;
  /** Text for the model (session start, prompt submit). */
  context?: string;
  /** Stop only: keep the turn going with `reason` as the instruction. */
  block?: boolean;
  /** Pre-tool only: the tool's input to run instead (the command sent through the jail, decision 0056). */
  updatedInput?: Record<string, unknown>;
}

export type { VerdictRule } from "./rule-ids.js";

export const ALLOW: Verdict = { allow: true, rule: null, reason: null };

export interface Rendered {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Where a client's UI process is, as data (docs/clients.md §2.6). `env-pid`: a variable the client
 * sets in its hooks' environment. `agent`: the agent process itself, unless its arguments include
 * all of `daemonArgs` (a shared daemon that outlives the UI; none: never); then the one process named
 * `processName` working in the session's directory whose arguments include none of `notUi`.
 */
export type UiProcessRule =
  | { kind: "env-pid"; variable: string }
  | { kind: "agent"; daemonArgs: readonly string[]; notUi: readonly string[] };

/** A project file that decides whether the client runs Tandem's hooks (src/core/guards/wiring.ts). */
export interface WiringFile {
  /** Relative to a project directory (the coordination root and the repository top). */
  file: string;
  /** What the file holds, for messages. */
  what: string;
  /** A directory whose every file is wiring (a new file there counts too). */
  dir?: boolean;
}

/**
 * A project file of the client's that `tandem init` does not write but whose settings can switch
 * every hook off (docs/decisions/0046): init, `doctor` and the wiring's heal switch them back on,
 * keeping everything else in the file.
 */
/**
 * One documented way to switch a client's hooks off inside a JSON settings file Tandem writes
 * (issue 37.5): declared in the client's own spec, one table per client. Pure.
 */
export interface SettingsSwitch {
  /** The key as the client's docs spell it, for messages (`disableAllHooks`). */
  key: string;
  /**
   * The paths to remove from the document to switch Tandem's hooks back on, each with a line
   * saying what it did; none when this switch leaves them on.
   */
  switchedOff(doc: Readonly<Record<string, unknown>>): { path: (string | number)[]; says: string }[];
}

/**
 * A settings file of the person's own that can switch a client's hooks off: `file` inside the
 * client's folder `dir` under the home directory, which `dirEnv` moves whole (`QWEN_HOME`,
 * `COPILOT_HOME`) or `homeEnv` moves by standing for the home (`GEMINI_CLI_HOME`).
 */
export interface UserSwitchFile {
  dir: string;
  file: string;
  dirEnv?: string;
  homeEnv?: string;
  switches: readonly SettingsSwitch[];
}

export interface HookSwitch {
  /** Relative to the root; also one of the client's `wiring` files. */
  file: string;
  /**
   * The text with the hooks switched back on, and one line per setting taken out; null when
   * nothing in it switches them off, or the client could not read the file either (it then
   * refuses to start and says why, which nobody misses). Pure.
   */
  switchOn(text: string): { text: string; changes: string[] } | null;
  /**
   * The person's own copy of the same file, read by doctor and `init --check`, never written:
   * `file` relative to the home directory, or to `$envDir` when that variable is set; `keys`
   * name the settings it would switch off with, for the message.
   */
  user?: { file: string; envDir: string; fileInEnvDir: string; keys: readonly string[] };
}

/**
 * How `tandem sub run --client <name>` starts the client headless (docs/product.md §7.1). The child
 * works alone in its own worktree, so it gets the mode that edits files without asking a human.
 */
export interface SubagentLaunch {
  command: string;
  args: readonly string[];
  /** The prompt goes as this option's value (`--prompt=`), not after `--`, so one starting with `-` stays a value. */
  promptFlag?: string;
  /** Variables the child needs set, whatever the caller's environment holds. */
  env?: Readonly<Record<string, string>>;
}

/** The end-of-turn ritual in the strongest form the client allows (docs/product.md §6). */
export interface RitualStyle {
  /**
   * `enforced`: a blocking Stop keeps the turn going with the reason as the instruction; `follow-up`:
   * the client sends the reason as a new prompt (it carries the remediation marker so the next Stop
   * counts it with the turn); `observed`: its Stop can never block, so Tandem only records.
   */
  form: "enforced" | "follow-up" | "observed";
  /**
   * A follow-up the client also shows the person ("Agent execution blocked: <reason>", Gemini):
   * sent without the marker line, its repair prompt is recognised by the text's lead (decision 0031).
   */
  plainFollowUp?: boolean;
  /** The client caps its own follow-ups (Cursor's `loop_limit`); otherwise Tandem stops after its block cap. */
  capsItself: boolean;
  /** The final reply must show the status box (rule 3), read from the Stop payload's last message. */
  statusBox: boolean;
  /** What each prompt adds: the short `reminder`, or the status `footer` an observed client's answer must end with. */
  prompt: "reminder" | "footer";
  /**
   * `first-tool`: the client drops what its start and prompt hooks answer (they run detached, Cline):
   * the agent's name, its peers and the ritual are told with each turn's first tool result instead.
   */
  promptVia?: "first-tool";
}

/**
 * How the client decides whether to run a project's hooks at all, which `doctor` checks and `init`
 * reports (docs/clients.md): `hook-review` (each hook approved in Codex's /hooks), `folder-trust-config`
 * (a trusted folder in Copilot's config), `trusted-folders` (Gemini's trustedFolders.json, which a
 * sub-agent's worktree also needs). A client sharing a mechanism reuses its check.
 */
export type TrustMechanism = "hook-review" | "folder-trust-config" | "trusted-folders";

/** A hook file Tandem writes whole (layout `files`); its path is relative to the root. */
export interface OwnedHookFile {
  path: string;
  text: string;
  executable: boolean;
}

/**
 * Whether the client's pre-tool hook can replace a shell command before it runs (issue 36,
 * docs/clients.md §17): with `guard: "kernel"`, Tandem sends the command through the jail where
 * `used`; the others are jailed whole by `tandem run <client>`.
 */
export interface CommandRewrite {
  /** `hook-output`: the pre-tool answer carries new input; `plugin`: Tandem's plugin changes the arguments; `unconfirmed`: not documented or observed. */
  via: "hook-output" | "plugin" | "unconfirmed";
  /** The shell tool's name as its hooks see it, and the field of its input that holds the command. */
  tool: string;
  field: string;
  /** Tandem rewrites through it this round. */
  used: boolean;
}

export interface ClientSpec<N extends string = string> {
  name: N;
  /** How people call it, for help and reports. */
  label: string;
  /** The project settings file hooks are registered into, relative to the root. */
  settingsFile: string;
  /** Every project file that can turn its hooks on or off, the settings file first; agents may not edit them. */
  wiring: readonly WiringFile[];
  /** A file of its own settings that can switch all its hooks off, which init and the heal switch back on. */
  hookSwitch?: HookSwitch;
  /**
   * Keys of its JSON settings files that switch its hooks off (issue 37.5), by file relative to
   * the root: init, `init --check`, doctor and the heal take them out of the files Tandem writes.
   */
  settingsSwitches?: Readonly<Record<string, readonly SettingsSwitch[]>>;
  /**
   * The same for the person's own JSON settings (`~/.qwen/settings.json`, say): never written by
   * Tandem, so `doctor` and `init --check` report them with the fix.
   */
  userSwitches?: readonly UserSwitchFile[];
  /**
   * `nested`: `{hooks: {Event: [{matcher, hooks: [{type, command}]}]}}`; `flat`: Cursor's
   * `{version, hooks: {event: [{command}]}}`; `copilot`: `{version, hooks: {event: [{type, bash}]}}`;
   * `files`: no settings entries but whole files Tandem writes (`hookFiles`, the first being
   * `settingsFile`), for a client whose hooks are scripts or plugins.
   */
  layout: "nested" | "flat" | "copilot" | "files";
  /**
   * Layout `files`: the files Tandem writes whole, given the launcher (`tandem`, say) and how a
   * person starts Tandem here (`npx tandem` for a devDependency), for the advice a file prints.
   * Each text carries `ownedMarkerLine` for every hook command it runs (./owned-file.ts). Pure.
   */
  hookFiles?(launcher: string, person: string): readonly OwnedHookFile[];
  events: readonly WiredEvent[];
  /**
   * Layout `nested`: top-level keys init writes beside the hooks when the file lacks them. A client
   * that rewrites a settings file without them on load (Qwen's `$version`) would otherwise dirty a
   * committed wiring file, and every sub-agent's capture with it.
   */
  settingsKeys?: Readonly<Record<string, unknown>>;
  /** Variables the client sets in its agent's shell that carry the native session id (docs/clients.md §11). */
  sessionEnv: readonly string[];
  /** It sets CLAUDE_PROJECT_DIR for its hooks, so the root may come from it (src/hooks/context.ts). */
  givesProjectDir: boolean;
  /**
   * Its settings file takes Claude's `permissions.allow` rules, with Claude's meaning: `tandem init`
   * writes the ritual's two there (src/wiring/allow-rules.ts, decision 0059).
   */
  allowRules?: boolean;
  /** A substring of the agent's process command line, for process discovery. */
  processName: string;
  /**
   * How to find the process the person sees, so liveness notices them leaving within seconds, with
   * or without an end event (src/sessions/ui.ts). Every client has one (test/sessions/liveness-rule.test.ts).
   */
  ui: UiProcessRule;
  /**
   * Session-end reasons that end one run of the client, not necessarily the session (Copilot's
   * prompt mode ends every turn so): they end it only when sent by the session's own UI process.
   */
  runEndReasons?: readonly string[];
  subagent: SubagentLaunch;
  /** None: it runs a project's hooks without a trust step. */
  trust?: TrustMechanism;
  ritual: RitualStyle;
  commandRewrite: CommandRewrite;
  parse(cliEvent: string, payload: unknown): ParseResult;
  render(kind: HookKind, event: WiredEvent | null, verdict: Verdict): Rendered;
}
