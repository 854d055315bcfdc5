import { errorMessage } from "../errors.js";
import { crashMessage, recordCrash } from "../resident/crashes.js";
import { dbFile } from "../store/db.js";
import { storeErrorOf } from "../store/failure.js";
import { logFailure } from "../store/failure-log.js";

/**
 * How the server survives its own faults (docs/server.md §7): background work that fails is
 * recorded and skipped, never fatal; only a fault nothing handled ends it, and that is recorded
 * before it exits.
 */
export class Faults {
  /** The last failure of each background task, so a lock held for minutes is logged once. */
  private readonly last = new Map<string, string>();

  constructor(
    private readonly stateDir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Runs `fn`; a failure is logged (in serve.log and the failure log doctor reads) and swallowed. */
  guard<T>(task: string, fn: () => T): T | undefined {
    try {
      const out = fn();
      this.last.delete(task);
      return out;
    } catch (err) {
      this.record(task, err);
      return undefined;
    }
  }

  record(task: string, err: unknown): void {
    const store = storeErrorOf(err, dbFile(this.stateDir));
    const message = `${task}: ${store?.message ?? errorMessage(err)}`;
    if (this.last.get(task) === message) return;
    this.last.set(task, message);
    this.log(`${message} (kept serving)`);
    logFailure(this.stateDir, {
      ts: new Date().toISOString(),
      source: "tandem serve",
      session: null,
      failed: "open",
      problem: store?.problem ?? "error",
      message,
    });
  }

  /**
   * A fault nothing caught (an exception, a rejected promise): the process's state is unknown, so
   * it records the crash, cleans up so the next hook goes through Node and starts a new server, and
   * exits 70.
   */
  onCrash(cleanUp: () => void): void {
    process.on("uncaughtException", (err, origin) => {
      const how = origin === "unhandledRejection" ? "unhandled rejection" : "uncaught exception";
      const message = crashMessage(how, err);
      this.log(`crashed: ${message}`);
      recordCrash(this.stateDir, {
        ts: new Date().toISOString(),
        pid: process.pid,
        found: "by itself",
        message,
      });
      try {
        cleanUp();
      } catch (e) {
        this.log(`cleaning up after the crash failed: ${errorMessage(e)}`);
      }
      process.exit(70);
    });
  }
}
