import { patient } from "../../helpers/patience.js";
import type { ChatRequest } from "./copilot-fake.js";

/**
 * opencode 1.18.33 sometimes freezes at start-up on a busy machine, with or without Tandem: it
 * sends no model request at all, or only its title request (upstream anomalyco/opencode#40439,
 * #50348; docs/clients.md §16.5). A scene that waited forever would time out as if Tandem hung, and
 * one that skipped would hide it. So each attempt must make its first agent request (one offering
 * tools) within a bound; a frozen attempt is stopped and started afresh, and when every attempt
 * froze the test fails with an error that names opencode and the reports.
 */

/** Attempts before the freeze is reported; three frozen starts in a row is opencode's state, not luck. */
export const START_ATTEMPTS = 3;

/** How long a start may take before its first agent request, on a quiet machine (stretched by load). */
export const START_BOUND_MS = 75_000;

export type StartState = "started" | "waiting" | "frozen" | "exited";

/**
 * Where one attempt stands: started once an agent request (not a title) arrived since it began,
 * exited when the client ended first (a failure of its own, for the test to show, not a freeze),
 * frozen once the bound passed with neither.
 */
export function startState(o: {
  agentRequests: number;
  elapsedMs: number;
  boundMs: number;
  exited: boolean;
}): StartState {
  if (o.agentRequests > 0) return "started";
  if (o.exited) return "exited";
  if (o.elapsedMs >= o.boundMs) return "frozen";
  return "waiting";
}

/** Agent requests (ones offering tools) among `requests` from index `from` on. */
export const agentRequestsSince = (requests: readonly ChatRequest[], from: number): number =>
  requests.slice(from).filter((r) => !r.auxiliary).length;

/** Title and summary requests among `requests` from index `from` on (a freeze may send one). */
export const titleRequestsSince = (requests: readonly ChatRequest[], from: number): number =>
  requests.slice(from).filter((r) => r.auxiliary).length;

/** The failure when every attempt froze: opencode's, with what was seen and where to look. */
export class OpencodeFroze extends Error {
  constructor(what: string, attempts: readonly string[]) {
    super(
      `opencode 1.18.33 froze at start-up in ${what} ${attempts.length} times in a row, before its first ` +
        `model request (${attempts.join("; ")}). This is opencode's known start-up freeze (upstream ` +
        "anomalyco/opencode#40439, #50348), not Tandem's; rerun on a quieter machine, or see " +
        "docs/clients.md §16.5.",
    );
    this.name = "OpencodeFroze";
  }
}

export interface StartAttempt<T> {
  /** What the attempt hands the test once it started (its world, its run's result). */
  value: T;
  /** Agent requests the fake has seen from this attempt so far. */
  agentRequests(): number;
  /** True once the client process has exited (before any agent request: not retried). */
  exited(): boolean;
  /** What the attempt looked like when it froze (its saved screen, its last output). */
  evidence(): string;
  /** Stops the frozen attempt and everything it started. */
  stop(): Promise<void>;
}

/**
 * Starts `attempt` until one makes an agent request within the bound, and returns it. Frozen
 * attempts are stopped; `onFrozen` hears of each (tests log it, so a retry never passes unseen).
 */
export async function startOpencode<T>(
  /** What is started, for a person reading a failure: "the TUI", "`opencode run`". */
  what: string,
  attempt: (n: number) => Promise<StartAttempt<T>> | StartAttempt<T>,
  o: { attempts?: number; boundMs?: number; onFrozen?: (n: number, evidence: string) => void } = {},
): Promise<T> {
  const bound = patient(o.boundMs ?? START_BOUND_MS);
  const frozen: string[] = [];
  for (let n = 1; n <= (o.attempts ?? START_ATTEMPTS); n++) {
    const a = await attempt(n);
    const begun = Date.now();
    let state: StartState = "waiting";
    while (state === "waiting") {
      await new Promise((r) => setTimeout(r, 250));
      state = startState({
        agentRequests: a.agentRequests(),
        elapsedMs: Date.now() - begun,
        boundMs: bound,
        exited: a.exited(),
      });
    }
    if (state !== "frozen") return a.value;
    const evidence = `attempt ${n}: no agent request in ${bound} ms, ${a.evidence()}`;
    frozen.push(evidence);
    o.onFrozen?.(n, evidence);
    await a.stop();
  }
  throw new OpencodeFroze(what, frozen);
}
