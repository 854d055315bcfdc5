import type { ServerResponse } from "node:http";
import { spanned } from "../core/printed.js";
import { NO_FILTER, parseKind } from "../core/ui/event-filter.js";
import { printerOf } from "../wiring/agent-shell.js";
import { ASSETS, type AssetCache, BLANK_HTML, PAGE_HTML } from "./assets.js";
import type { UiContext } from "./context.js";
import type { Feed } from "./feed.js";
import { problems } from "./problems.js";
import { eventsPage, type Names } from "./read-events.js";
import type { StoreReader } from "./reader.js";
import { subDetail } from "./sub-detail.js";

export interface Deps {
  reader: StoreReader;
  ctx: UiContext;
  names: Names;
  feed: Feed;
  assets: AssetCache;
}

function body(res: ServerResponse, status: number, type: string, data: string | Buffer): void {
  res.writeHead(status, { "Content-Type": type });
  res.end(data);
}

const json = (res: ServerResponse, data: unknown, status = 200) =>
  body(res, status, "application/json; charset=utf-8", JSON.stringify(data));

function intParam(url: URL, name: string, fallback: number): number {
  const n = Number(url.searchParams.get(name));
  return url.searchParams.has(name) && Number.isFinite(n) ? n : fallback;
}

function events(d: Deps, url: URL, res: ServerResponse): void {
  const filter = {
    session: url.searchParams.get("session") || NO_FILTER.session,
    kind: parseKind(url.searchParams.get("kind") ?? ""),
  };
  const req = {
    filter,
    anchor: intParam(url, "anchor", Number.MAX_SAFE_INTEGER),
    offset: intParam(url, "offset", 0),
    limit: intParam(url, "limit", 200),
  };
  json(res, eventsPage(d.reader.db, req, d.names, d.ctx.root));
}

/** Every path the board serves; all of them only read. */
export async function route(d: Deps, url: URL, res: ServerResponse): Promise<void> {
  const path = url.pathname;
  if (path === "/") return body(res, 200, "text/html; charset=utf-8", PAGE_HTML);
  if (path === "/blank") return body(res, 200, "text/html; charset=utf-8", BLANK_HTML);
  const asset = ASSETS[path];
  if (asset) return body(res, 200, asset, d.assets.get(path));
  if (path === "/api/stream") return d.feed.subscribe(res);
  if (path === "/api/state") return json(res, d.feed.state());
  if (path === "/api/events") return events(d, url, res);
  if (path === "/api/problems") return json(res, await problems(d.reader.db, d.ctx, d.names));
  if (path === "/api/sub") {
    const printer = printerOf(d.ctx.root, d.ctx.stateDir, "person");
    const detail = subDetail(d.reader.db, d.ctx.stateDir, url.searchParams.get("id") ?? "", printer);
    if (detail) return json(res, detail);
    return json(res, { error: `no such sub-agent; see ${spanned(printer, "sub", "list", "--all")}` }, 404);
  }
  body(res, 404, "text/plain; charset=utf-8", `tandem ui: nothing at ${path}\n`);
}
