import { describe, expect, it } from "vitest";
import { doctor, twoSessions } from "../helpers/store-faults.js";

interface Check {
  level: string;
  check: string;
  detail: string;
  fix?: string;
}

describe("tandem doctor on the store's history", () => {
  it("shows the store's size, event count, oldest event and blob bytes", async () => {
    const w = await twoSessions();
    const out = JSON.parse(doctor(w.repo, "--json").stdout) as { checks: Check[] };
    const history = out.checks.find((c) => c.check === "history");
    const today = new Date().toISOString().slice(0, 10);
    expect(history).toMatchObject({ level: "ok" });
    expect(history!.detail).toMatch(
      new RegExp(`^\\d+\\.\\d (KB|MB) store, \\d+ events since ${today}, [\\d.]+ (B|KB) of blobs$`),
    );
    expect(doctor(w.repo).stdout).toContain("events since");
  });
});
