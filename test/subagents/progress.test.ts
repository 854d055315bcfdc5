import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ttyProgress } from "../../src/subagents/lifecycle/progress.js";

describe("the TTY progress line", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows output as it comes and a spinner only while the child is quiet at a line start", () => {
    let now = 0;
    const out: string[] = [];
    const p = ttyProgress(
      (t) => out.push(t),
      "sub_1 running",
      () => now,
    );
    now = 1500;
    vi.advanceTimersByTime(130);
    expect(out.at(-1)).toMatch(/sub_1 running \(2s\)$/);
    p.output(Buffer.from("partial"));
    expect(out.slice(-2)).toEqual(["\r\x1b[2K", "partial"]);
    now = 5000;
    vi.advanceTimersByTime(500);
    // Mid-line: no spinner over the child's text.
    expect(out.at(-1)).toBe("partial");
    p.stop();
    expect(out.at(-1)).toBe("\n");
  });
});
