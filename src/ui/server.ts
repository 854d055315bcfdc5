import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { cookieHeader, decideAccess } from "../core/ui/access.js";
import { AssetCache } from "./assets.js";
import type { UiContext } from "./context.js";
import { Feed } from "./feed.js";
import { Names } from "./read-events.js";
import { StoreReader } from "./reader.js";
import { route } from "./routes.js";

export interface UiServerOptions {
  ctx: UiContext;
  /** 0 picks a free port. */
  port: number;
  assetsDir: string;
  token?: string;
  pollMs?: number;
  tickMs?: number;
}

export interface UiServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Headers on every answer: no caching, no framing, no referrer (the token is in the first URL). */
const SAFE_HEADERS: Record<string, string> = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Content-Security-Policy":
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
};

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startUiServer(o: UiServerOptions): Promise<UiServer> {
  const token = o.token ?? randomBytes(24).toString("base64url");
  const reader = new StoreReader(o.ctx.stateDir);
  const names = new Names();
  const feed = new Feed(reader, o.ctx, names, { pollMs: o.pollMs ?? 100, tickMs: o.tickMs ?? 2000 });
  const assets = new AssetCache(o.assetsDir);
  const policy = { port: 0, token };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    for (const [k, v] of Object.entries(SAFE_HEADERS)) res.setHeader(k, v);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const access = decideAccess(
      {
        method: req.method ?? "GET",
        host: req.headers.host,
        queryToken: url.searchParams.get("token"),
        cookie: req.headers.cookie,
      },
      policy,
    );
    if (!access.ok) {
      if (access.status === 405) res.setHeader("Allow", "GET, HEAD");
      res.writeHead(access.status, { "Content-Type": "text/plain; charset=utf-8" });
      res.end(`tandem ui: ${access.message}\n`);
      return;
    }
    if (access.setCookie) res.setHeader("Set-Cookie", cookieHeader(policy));
    route({ reader, ctx: o.ctx, names, feed, assets }, url, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end(`tandem ui: ${(err as Error).message}\n`);
    });
  };
  const server = createServer(handle);
  try {
    policy.port = await listen(server, o.port);
  } catch (err) {
    reader.close();
    throw err;
  }
  feed.start();
  return {
    url: `http://127.0.0.1:${policy.port}/?token=${token}`,
    port: policy.port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        feed.stop();
        server.closeAllConnections();
        server.close(() => {
          reader.close();
          resolve();
        });
      }),
  };
}
