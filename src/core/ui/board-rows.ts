/** Rows both boards show — the terminal's (`tandem watch`) and the browser's (`tandem ui`). */

/** One sub-agent: how it runs or ended, what was captured, where it was applied. */
export interface SubagentRow {
  name: string;
  parent: string | null;
  client: string;
  state: string;
  capture: string;
  apply: string;
  running: boolean;
  /** Something needs the user: work not captured, an apply blocked or failed, a child that failed. */
  problem: boolean;
}

/** A session in another checkout, or a lease (the ELSEWHERE section). */
export interface RemoteRow {
  kind: "session" | "lease";
  /** The other checkout (`host:/path`), or "this checkout" for its own leases. */
  machine: string;
  who: string;
  branch: string;
  paths: string;
  task: string;
  /** How old the information is (a session), or until when it holds (a lease). */
  when: string;
}
