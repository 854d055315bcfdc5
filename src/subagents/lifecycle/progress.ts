const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR = "\r\x1b[2K";

export interface Progress {
  /** Child output to show; clears the status line first. */
  output(chunk: Buffer): void;
  stop(): void;
}

/**
 * A live view for a terminal (stderr only): the child's output as it comes, and
 * a spinner with the elapsed time while the child is quiet at a line start.
 */
export function ttyProgress(write: (text: string) => void, label: string, now = Date.now): Progress {
  const started = now();
  let lastOutput = 0;
  let atLineStart = true;
  let drawn = false;
  let frame = 0;
  const timer = setInterval(() => {
    if (!atLineStart || now() - lastOutput < 1000) return;
    const secs = Math.round((now() - started) / 1000);
    write(`${CLEAR}${FRAMES[frame++ % FRAMES.length]} ${label} (${secs}s)`);
    drawn = true;
  }, 120);
  const clear = () => {
    if (drawn) write(CLEAR);
    drawn = false;
  };
  return {
    output(chunk) {
      clear();
      const text = chunk.toString("utf8");
      write(text);
      lastOutput = now();
      atLineStart = text.endsWith("\n");
    },
    stop() {
      clearInterval(timer);
      clear();
      if (!atLineStart) write("\n");
    },
  };
}
