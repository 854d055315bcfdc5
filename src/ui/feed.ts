import type { ServerResponse } from "node:http";
import { type DeltaMessage, PART_NAMES, type StateMessage, type UiParts } from "../core/ui/protocol.js";
import { maxSeq } from "../store/events/list.js";
import { dataVersion } from "../store/probes.js";
import { printerOf } from "../wiring/agent-shell.js";
import type { UiContext } from "./context.js";
import { eventsAfter, type Names, PAGE_MAX } from "./read-events.js";
import { readParts, TurnCache } from "./read-parts.js";
import type { StoreReader } from "./reader.js";

export interface FeedOptions {
  /** How often the store's change counter is read, in ms. */
  pollMs: number;
  /** Liveness and ages change with time alone: the parts are re-read this often even when idle. */
  tickMs: number;
}

type PartName = keyof UiParts;
const PARTS: readonly PartName[] = PART_NAMES;

/**
 * Watches the store and pushes what changed to every open page (server-sent events). The store's
 * `PRAGMA data_version` moves whenever another connection commits: one cheap read per poll, and
 * hooks never learn the board exists (docs/decisions/0015).
 */
export class Feed {
  private readonly clients = new Set<ServerResponse>();
  private turns = new TurnCache();
  private timer: ReturnType<typeof setInterval> | undefined;
  private version = -1;
  private seq = 0;
  private parts: UiParts;
  private sent: Record<PartName, string>;
  private lastRead = 0;
  private failure: string | null = null;

  constructor(
    private readonly reader: StoreReader,
    private readonly ctx: UiContext,
    private readonly names: Names,
    private readonly opts: FeedOptions,
  ) {
    this.parts = this.readAfresh();
    this.sent = this.encode(this.parts);
  }

  private get db() {
    return this.reader.db;
  }

  /** Everything from the store as it is now: at start, and after the store was replaced. */
  private readAfresh(): UiParts {
    this.turns = new TurnCache();
    this.seq = maxSeq(this.db);
    this.lastRead = Date.now();
    this.version = this.dataVersion();
    return readParts(this.db, this.ctx, this.lastRead, this.turns);
  }

  start(): void {
    this.timer = setInterval(() => this.guardedPoll(), this.opts.pollMs);
  }

  /** A failed read (a store locked past its timeout, replaced, damaged) is said once and retried. */
  private guardedPoll(): void {
    try {
      this.poll();
      this.failure = null;
    } catch (err) {
      const message = (err as Error).message;
      if (message !== this.failure)
        process.stderr.write(`tandem ui: reading the store failed (retrying): ${message}\n`);
      this.failure = message;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }

  state(): StateMessage {
    const launcher = printerOf(this.ctx.root, this.ctx.stateDir, "person").launcher;
    return { root: this.ctx.root, launcher, seq: this.seq, now: Date.now(), ...this.parts };
  }

  subscribe(res: ServerResponse): void {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    res.write("retry: 1000\n\n");
    send(res, "state", this.state());
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  private dataVersion(): number {
    return dataVersion(this.db);
  }

  private encode(parts: UiParts): Record<PartName, string> {
    return Object.fromEntries(PARTS.map((k) => [k, JSON.stringify(parts[k])])) as Record<PartName, string>;
  }

  /** One poll: read and push only when the store moved or the tick is due. */
  poll(): void {
    if (this.reader.refresh()) {
      // Another store: pages reconnect (EventSource does by itself) and start from its state.
      this.parts = this.readAfresh();
      this.sent = this.encode(this.parts);
      for (const res of this.clients) res.end();
      this.clients.clear();
      return;
    }
    const version = this.dataVersion();
    const now = Date.now();
    if (version === this.version && now - this.lastRead < this.opts.tickMs) return;
    this.version = version;
    this.lastRead = now;
    const delta = this.delta(now);
    if (delta) for (const res of this.clients) send(res, "delta", delta);
  }

  private delta(now: number): DeltaMessage | null {
    const events = eventsAfter(this.db, this.seq, this.names, this.ctx.root);
    const seq = events.at(-1)?.seq ?? this.seq;
    const truncated = events.length === PAGE_MAX && (events[0]?.seq ?? 0) > this.seq + 1;
    this.seq = seq;
    this.parts = readParts(this.db, this.ctx, now, this.turns);
    const encoded = this.encode(this.parts);
    const changed = PARTS.filter((k) => encoded[k] !== this.sent[k]);
    this.sent = encoded;
    if (events.length === 0 && changed.length === 0) return null;
    const msg: DeltaMessage = { seq, now, events, ...(truncated ? { truncated } : {}) };
    for (const k of changed) Object.assign(msg, { [k]: this.parts[k] });
    return msg;
  }
}

function send(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
