import { existsSync, mkdirSync, renameSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeltaMessage, EventsPage, StateMessage } from "../../src/core/ui/protocol.js";
import { tandem } from "../helpers/cli.js";
import { claudeWrite, hook } from "../helpers/hooks.js";
import { ask, type Board, fileRepo, startBoard } from "./support.js";

let repo: string;
let cleanup: () => void;
let board: Board;

const host = () => `127.0.0.1:${board.port}`;
const withToken = (path: string) => `${path}${path.includes("?") ? "&" : "?"}token=${board.token}`;
const write = (session: string, file: string) =>
  hook("claude-code", "pre-tool-use", claudeWrite(repo, session, file), { cwd: repo });

beforeAll(async () => {
  ({ repo, cleanup } = fileRepo());
  write("sess-a", "src/app.ts");
  board = await startBoard(repo);
});

afterAll(async () => {
  await board?.stop();
  cleanup?.();
});

/** Reads server-sent messages until `done` says stop or the server ends the stream. */
function stream(
  headers: Record<string, string>,
  done: (event: string, data: unknown) => boolean,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: board.port, path: "/api/stream", headers }, (res) => {
      res.on("end", () => resolve());
      let buf = "";
      res.on("data", (d) => {
        buf += d;
        let end = buf.indexOf("\n\n");
        while (end >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data && done(event, JSON.parse(data))) {
            req.destroy();
            return resolve();
          }
          end = buf.indexOf("\n\n");
        }
      });
    });
    req.on("error", (e) => ((e as NodeJS.ErrnoException).code === "ECONNRESET" ? resolve() : reject(e)));
    req.end();
  });
}

describe("tandem ui's HTTP guard", () => {
  it("prints a URL on 127.0.0.1 with a long random token", () => {
    expect(board.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it("answers 401 without the token, on the page and the API alike", async () => {
    for (const path of ["/", "/api/state", "/api/stream", "/assets/app.js"]) {
      const r = await ask(board.port, path, { headers: { Host: host() } });
      expect([path, r.status]).toEqual([path, 401]);
      expect(r.body).toContain("?token=");
    }
  });

  it("sets an HttpOnly SameSite=Strict cookie on the first visit and accepts it after", async () => {
    const first = await ask(board.port, withToken("/"), { headers: { Host: host() } });
    expect(first.status).toBe(200);
    const cookie = String(first.headers["set-cookie"]).split(";")[0]!;
    expect(String(first.headers["set-cookie"])).toMatch(/HttpOnly; SameSite=Strict/);
    const next = await ask(board.port, "/api/state", { headers: { Host: host(), Cookie: cookie } });
    expect(next.status).toBe(200);
    expect((JSON.parse(next.body) as StateMessage).claims).toEqual([
      { path: "src/app.ts", holder: expect.stringMatching(/^agent-/), state: "live" },
    ]);
  });

  it("refuses a foreign Host with 403 even with the token (DNS rebinding)", async () => {
    const r = await ask(board.port, withToken("/api/state"), {
      headers: { Host: `evil.example:${board.port}` },
    });
    expect(r.status).toBe(403);
  });

  it("answers 405 to anything but GET: no endpoint changes state", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await ask(board.port, withToken("/api/state"), { method, headers: { Host: host() } });
      expect([method, r.status, r.headers.allow]).toEqual([method, 405, "GET, HEAD"]);
    }
  });

  it("sends no CORS headers, even to a cross-origin request", async () => {
    const r = await ask(board.port, withToken("/api/state"), {
      headers: { Host: host(), Origin: "https://evil.example" },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });
});

describe("tandem ui's data", () => {
  it("pushes a claim a hook records as a delta on the open stream", async () => {
    const headers = { Host: host(), Cookie: `tandem-ui-${board.port}=${board.token}` };
    let sawState = false;
    await stream(headers, (event, data) => {
      if (event === "state") {
        sawState = true;
        write("sess-b", "docs/new.md");
        return false;
      }
      const d = data as DeltaMessage;
      return d.events.some((e) => e.kind === "claim.acquired" && e.detail === "docs/new.md") && !!d.claims;
    });
    expect(sawState).toBe(true);
  });

  it("pages the history newest first under an anchor, filtered by kind", async () => {
    const r = await ask(board.port, withToken("/api/events?kind=claim.*&limit=1&offset=1"), {
      headers: { Host: host() },
    });
    const page = JSON.parse(r.body) as EventsPage;
    expect(page.total).toBe(2);
    expect(page.rows.map((e) => [e.kind, e.detail])).toEqual([["claim.acquired", "src/app.ts"]]);
  });
});

describe("tandem ui after its store is replaced", () => {
  it("reads the new store: the open stream ends, and the next state is the new store's", async () => {
    const headers = { Host: host(), Cookie: `tandem-ui-${board.port}=${board.token}` };
    // Resolves only when the server ends the stream: `done` never says stop.
    await stream(headers, (event) => {
      if (event !== "state") return false;
      // The store goes missing (a person moved it); `doctor --reset` starts an empty one, with a
      // new identity, under the running board.
      const state = join(repo, ".git", "tandem");
      mkdirSync(join(state, "aside"));
      for (const f of ["state.db", "state.db-wal", "state.db-shm"])
        if (existsSync(join(state, f))) renameSync(join(state, f), join(state, "aside", f));
      expect(tandem(["doctor", "--reset"], { cwd: repo }).stdout).toContain("reset");
      return false;
    });
    const after = await ask(board.port, withToken("/api/state"), { headers: { Host: host() } });
    expect((JSON.parse(after.body) as StateMessage).claims).toEqual([]);
  });
});
