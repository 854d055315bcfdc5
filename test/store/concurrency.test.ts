import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { listEvents } from "../../src/store/events/list.js";
import { checkEventData } from "../../src/store/events/schemas.js";
import { dumpProjections, rebuildProjections } from "../../src/store/repair/rebuild.js";
import { bundleForTest } from "../helpers/bundle.js";
import { tempDir } from "../helpers/repo.js";

let workerJs = "";

beforeAll(async () => {
  workerJs = await bundleForTest("test/helpers/append-worker.ts");
});

function runWorker(stateDir: string, id: number, count: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerJs, stateDir, String(id), String(count)], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? -1));
  });
}

describe("concurrent writers", () => {
  it("8 processes appending 500 events each leave exactly 4,000 valid events in strict order", async () => {
    const stateDir = tempDir();
    openDb(stateDir).close();
    const codes = await Promise.all(Array.from({ length: 8 }, (_, i) => runWorker(stateDir, i, 500)));
    expect(codes).toEqual(Array(8).fill(0));

    const db = openDb(stateDir);
    const events = listEvents(db);
    expect(events).toHaveLength(4000);
    for (let i = 1; i < events.length; i++) expect(events[i]!.seq).toBeGreaterThan(events[i - 1]!.seq);
    for (const ev of events) expect(checkEventData(ev.kind, ev.data)).toBeNull();

    // Each writer's own events kept their order, and none was lost.
    const perSession = new Map<string, number[]>();
    for (const ev of events.filter((e) => e.kind === "task.set")) {
      const [, i] = (ev.data as { text: string }).text.split(":");
      perSession.set(ev.session!, [...(perSession.get(ev.session!) ?? []), Number(i)]);
    }
    expect(perSession.size).toBe(8);
    for (const seq of perSession.values()) {
      expect(seq).toEqual([...seq].sort((a, b) => a - b));
      expect(seq).toHaveLength(249);
    }
    const live = dumpProjections(db);
    expect(live.sessions).toHaveLength(8);
    expect(new Set((live.sessions as { name: string }[]).map((s) => s.name)).size).toBe(8);
    expect(live.claims).toHaveLength(8 * 250);
    rebuildProjections(db);
    expect(dumpProjections(db)).toEqual(live);
    db.close();
  });
});
