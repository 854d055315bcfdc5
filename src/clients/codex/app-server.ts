import type { ChildProcessWithoutNullStreams } from "node:child_process";

/**
 * A minimal client for `codex app-server` (JSON-RPC 2.0 over stdio, one JSON object per line, the
 * `"jsonrpc"` member omitted). Enough for hook listing and trust; no test-framework dependencies.
 */

export interface AppServerOptions {
  /** The native `codex` binary (or the npm wrapper). */
  bin: string;
  /** Sets `CODEX_HOME`; otherwise the inherited one (or `~/.codex`) is used. */
  codexHome?: string;
  env?: NodeJS.ProcessEnv;
  /** Per request; the server answers hooks/list and config writes in milliseconds. */
  timeoutMs?: number;
}

export type HookTrustStatus = "managed" | "untrusted" | "trusted" | "modified";

/** One entry of `hooks/list` (0.171.0 `HookMetadata`; only the fields we rely on are typed). */
export interface CodexHook {
  /** `<source path>:<event label>:<group index>:<handler index>`, the `hooks.state` key. */
  key: string;
  eventName: string;
  trustStatus: HookTrustStatus;
  /** `sha256:…`; trust pins this value. Never compute it yourself. */
  currentHash: string;
  enabled: boolean;
  isManaged: boolean;
  source: string;
  sourcePath: string;
  handlerType?: string;
  command?: string;
  matcher?: string | null;
  timeoutSec?: number;
  [field: string]: unknown;
}

export interface HooksListEntry {
  cwd: string;
  hooks: CodexHook[];
  errors: { message: string; path: string }[];
  warnings: string[];
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class CodexAppServer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderr = "";
  private exited = false;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly timeoutMs: number,
  ) {
    process
      .getBuiltinModule("node:readline")
      .createInterface({ input: child.stdout })
      .on("line", (line) => this.onLine(line));
    child.stderr.on("data", (b: Buffer) => {
      this.stderr = (this.stderr + b.toString("utf8")).slice(-4000);
    });
    child.on("error", (e) => this.failAll(new Error(`codex app-server: ${e.message}`)));
    child.on("exit", (code, signal) => {
      this.exited = true;
      this.failAll(new Error(`codex app-server exited (${code ?? signal}): ${this.stderr.trim()}`));
    });
  }

  /** Spawns the server and performs the `initialize` handshake. */
  static async start(opts: AppServerOptions): Promise<CodexAppServer> {
    const env = { ...(opts.env ?? process.env) };
    if (opts.codexHome) env.CODEX_HOME = opts.codexHome;
    const child = process
      .getBuiltinModule("node:child_process")
      .spawn(opts.bin, ["app-server"], { env, stdio: ["pipe", "pipe", "pipe"] });
    const server = new CodexAppServer(child, opts.timeoutMs ?? 30_000);
    const started = new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    await started;
    try {
      await server.request("initialize", { clientInfo: { name: "tandem", version: "0" } });
      server.notify("initialized");
    } catch (e) {
      await server.close();
      throw e;
    }
    return server;
  }

  request<T = unknown>(method: string, params?: unknown): Promise<T> {
    if (this.exited)
      return Promise.reject(new Error(`codex app-server is not running: ${this.stderr.trim()}`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`codex app-server: ${method} timed out after ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.send({ id, method, params });
    });
  }

  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Ends stdin (the server exits on EOF) and waits for the exit; kills it if it lingers. */
  async close(): Promise<void> {
    this.failAll(new Error("codex app-server closed"));
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }

  private send(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private onLine(line: string): void {
    let msg: { id?: number | string; method?: string; result?: unknown; error?: { message?: string } };
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.method !== undefined && msg.id !== undefined) {
      // A server-to-client request (approval, elicitation): we never grant anything.
      this.send({ id: msg.id, error: { code: -32601, message: "not supported by this client" } });
      return;
    }
    if (typeof msg.id !== "number") return; // a notification
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id);
    clearTimeout(waiter.timer);
    if (msg.error)
      waiter.reject(new Error(`codex app-server: ${msg.error.message ?? JSON.stringify(msg.error)}`));
    else waiter.resolve(msg.result);
  }

  private failAll(error: Error): void {
    for (const [id, waiter] of this.pending) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
      this.pending.delete(id);
    }
  }
}

/** `hooks/list` for the given project directories (project hooks load only for trusted projects). */
export async function listHooks(server: CodexAppServer, cwds: readonly string[]): Promise<HooksListEntry[]> {
  const res = await server.request<{ data: HooksListEntry[] }>("hooks/list", { cwds });
  return res.data;
}

/**
 * Records trust for the given hooks at their current hash in the user `config.toml`. One
 * `hooks.state` upsert with the key as a map key: a dotted keyPath would be split at the dots
 * inside the key (`.codex/hooks.json`).
 */
export async function trustHooks(server: CodexAppServer, hooks: readonly CodexHook[]): Promise<void> {
  if (hooks.length === 0) return;
  const value = Object.fromEntries(hooks.map((h) => [h.key, { trusted_hash: h.currentHash }]));
  await server.request("config/batchWrite", {
    edits: [{ keyPath: "hooks.state", mergeStrategy: "upsert", value }],
  });
}

/** Hooks Codex would skip silently: neither managed nor trusted at their current hash. */
export function needsTrust(hook: CodexHook): boolean {
  return hook.trustStatus === "untrusted" || hook.trustStatus === "modified";
}
