import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchLoop } from "../../src/watch/loop.js";
import type { Screen, Size } from "../../src/watch/terminal.js";

interface FakeScreen extends Screen {
  paints: { lines: string[]; full: boolean }[];
  restored: number;
  resize(size: Size): void;
  quit(): void;
}

function fakeScreen(): FakeScreen {
  let size: Size = { columns: 80, rows: 24 };
  const resizers: (() => void)[] = [];
  const quitters: (() => void)[] = [];
  const screen: FakeScreen = {
    paints: [],
    restored: 0,
    size: () => size,
    paint(lines, full) {
      screen.paints.push({ lines, full });
    },
    onResize: (cb) => resizers.push(cb),
    onQuit: (cb) => quitters.push(cb),
    restore() {
      screen.restored += 1;
    },
    resize(next) {
      size = next;
      for (const cb of resizers) cb();
    },
    quit() {
      for (const cb of quitters) cb();
    },
  };
  return screen;
}

function source() {
  const state = { seq: 1, frames: 0, fail: false };
  return {
    state,
    seq: () => state.seq,
    frame(now: number, size: Size) {
      if (state.fail) throw new Error("store went away");
      state.frames += 1;
      return [`seq ${state.seq} at ${now} in ${size.columns}x${size.rows}`];
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("watchLoop", () => {
  it("draws at once, redraws when the ledger moves, and otherwise once a second", async () => {
    const screen = fakeScreen();
    const src = source();
    const done = watchLoop(screen, src, { interval: 250 });
    expect(screen.paints).toHaveLength(1);
    expect(screen.paints[0]!.full).toBe(true);

    await vi.advanceTimersByTimeAsync(750);
    expect(src.state.frames).toBe(1);

    src.state.seq = 2;
    await vi.advanceTimersByTimeAsync(250);
    expect(src.state.frames).toBe(2);
    expect(screen.paints.at(-1)).toMatchObject({ full: false, lines: [expect.stringMatching(/^seq 2 /)] });

    await vi.advanceTimersByTimeAsync(1000);
    expect(src.state.frames).toBe(3);

    screen.quit();
    await done;
    expect(screen.restored).toBe(1);
  });

  it("repaints in full at the new size on a resize", async () => {
    const screen = fakeScreen();
    const done = watchLoop(screen, source(), { interval: 250 });
    screen.resize({ columns: 50, rows: 10 });
    expect(screen.paints.at(-1)).toMatchObject({ full: true, lines: [expect.stringMatching(/in 50x10$/)] });
    screen.quit();
    await done;
  });

  it("restores the terminal and rejects when a frame cannot be built", async () => {
    const screen = fakeScreen();
    const src = source();
    const done = watchLoop(screen, src, { interval: 250 });
    const failed = expect(done).rejects.toThrow("store went away");
    src.state.fail = true;
    src.state.seq = 5;
    await vi.advanceTimersByTimeAsync(250);
    await failed;
    expect(screen.restored).toBe(1);
    // Nothing runs after the loop ended.
    await vi.advanceTimersByTimeAsync(5000);
    expect(screen.restored).toBe(1);
  });

  it("restores the terminal when the very first frame fails", async () => {
    const screen = fakeScreen();
    const src = source();
    src.state.fail = true;
    await expect(watchLoop(screen, src, { interval: 250 })).rejects.toThrow("store went away");
    expect(screen.restored).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
