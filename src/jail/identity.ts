/**
 * A request that came through a jail's door (decision 0064): the server knows the jail's session
 * from its key, so the request acts for that session or for nobody. A refusal is recorded as
 * `jail.refused` with the jail's session; the decision is src/core/jail/identity.ts.
 */
import { loadConfig } from "../config/load.js";
import { jailedVerdict } from "../core/jail/identity.js";
import type { StoreAccess } from "../store/access.js";
import { append, write } from "../store/ledger/append.js";
import { sessionById } from "../store/sessions/rows.js";

export interface JailedAsk {
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** The session id the jail's key names. */
  session: string;
  root: string;
  stateDir: string;
  store: StoreAccess;
}

export type JailedOutcome = { kind: "run"; session: string } | { kind: "refuse"; reason: string };

/** What the request may do, the refusal recorded before it is answered. */
export function judgeJailed(ask: JailedAsk): JailedOutcome {
  const { config } = loadConfig(ask.root, ask.env);
  const db = ask.store.open(ask.stateDir, { lockSeconds: config.storeLockSeconds });
  try {
    const row = sessionById(db, ask.session);
    if (!row)
      return {
        kind: "refuse",
        reason: `Tandem refused this: it runs inside the jail of session ${ask.session}, which the store no longer knows; nothing was done. Start a new command from the agent.`,
      };
    const v = jailedVerdict({ args: ask.args, env: ask.env, jail: { id: row.id, name: row.name } });
    if (v.kind === "run") return { kind: "run", session: row.id };
    const command = `tandem ${ask.args.join(" ")}`.slice(0, 500);
    write(db, (tx) =>
      append(tx, {
        kind: "jail.refused",
        session: row.id,
        data: { attempt: v.attempt, claimed: v.claimed, command },
      }),
    );
    return { kind: "refuse", reason: v.reason };
  } finally {
    ask.store.release(db);
  }
}
