/**
 * An error meant for the user: one line saying what is wrong and what to do.
 * `exitCode` follows docs/product.md §11: 1 refused/failed, 2 bad usage or input.
 */
export class TandemError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = "TandemError";
  }
}

export class UsageError extends TandemError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
