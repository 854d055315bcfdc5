/**
 * A gate a fake model server's step can wait on: the client's request stays unanswered, so its turn
 * stays open (hooks, claims and process alive) until the test opens the gate.
 */
export interface Gate {
  /** Resolves once `open` has been called; awaiting it again later returns at once. */
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => open() };
}
