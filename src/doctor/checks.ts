import type { LoadedConfig } from "../config/load.js";
import { printerOf } from "../wiring/agent-shell.js";
import { checkAgentShell } from "./agent-shell-check.js";
import { blobFindings } from "./blob-checks.js";
import { configFindings } from "./config-checks.js";
import { engineFindings } from "./engine-check.js";
import { healFindings } from "./heal-check.js";
import { historyFindings } from "./history-checks.js";
import { hookErrorFinding } from "./hook-errors.js";
import { jailFinding } from "./jail-check.js";
import { checkLanding } from "./land-check.js";
import { doctorLeftWork, leftWorkFindings } from "./left-check.js";
import { opencodePluginFindings } from "./plugin-check.js";
import { checkRemote } from "./remote-check.js";
import { retentionFindings } from "./retention-check.js";
import { serverCrashFindings } from "./server-check.js";
import { sessionClients } from "./session-clients.js";
import { checkStore, type Finding, type StoreReport } from "./store-checks.js";
import { nodeFinding, staleSessionFindings } from "./system-checks.js";
import { userSwitchFindings } from "./user-switch-check.js";
import { checkWiring } from "./wiring-checks.js";

export interface DoctorTarget {
  root: string;
  /** The repository top, to ask git which files are left work; null outside a repository. */
  repoTop?: string | null;
  stateDir: string;
  loaded: LoadedConfig;
  env: Readonly<Record<string, string | undefined>>;
  now: number;
  /** Hook errors are counted from here (epoch ms). */
  since: number;
  rebuild?: boolean;
}

/**
 * Every check `tandem doctor` runs, in its order: the store's own report, then the rest. Shared by
 * the command and the browser board's Problems view, so both say the same.
 */
export async function doctorChecks(t: DoctorTarget): Promise<{ store: StoreReport; other: Finding[] }> {
  // Doctor's fixes are read by a person: spelled as their terminal runs Tandem.
  const printer = printerOf(t.root, t.stateDir, "person");
  const store = checkStore(t.stateDir, { rebuild: t.rebuild === true, hookErrorsSince: t.since, printer });
  const config = t.loaded.config;
  // First: it records the probe that decides which command the allow rules must name.
  const shell = checkAgentShell(t.root, t.stateDir, t.env, printer);
  const leftTarget = {
    stateDir: t.stateDir,
    root: t.root,
    repoTop: t.repoTop ?? null,
    freshnessSeconds: config.freshnessSeconds,
    now: t.now,
    printer,
  };
  const left = doctorLeftWork(leftTarget);
  const other = [
    nodeFinding(),
    jailFinding(t.env, printer),
    ...configFindings(t.loaded, t.root),
    ...(await checkWiring(t.root, t.env, undefined, t.stateDir, sessionClients(t.stateDir), printer)),
    ...healFindings(t.stateDir, t.since, printer),
    ...userSwitchFindings(t.env),
    ...opencodePluginFindings(t.root, t.env),
    ...shell,
    ...staleSessionFindings(t.stateDir, config.freshnessSeconds, { root: t.root, printer, left }, t.now),
    ...leftWorkFindings(leftTarget, left),
    ...historyFindings(t.stateDir, printer, t.now),
    ...blobFindings(t.stateDir),
    ...retentionFindings(t.stateDir, config, printer),
    ...checkRemote(t.stateDir, config, printer, t.now),
    ...(await engineFindings(config, t.repoTop ?? null)),
    ...checkLanding(t.root, t.stateDir, printer),
    ...serverCrashFindings(t.stateDir, t.since, printer),
  ];
  if (store.hookErrors) other.push(hookErrorFinding(store.hookErrors, t.since, printer));
  return { store, other };
}
