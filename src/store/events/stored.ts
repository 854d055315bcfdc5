/** One event as the ledger holds it; projectors read it, the ledger writes it. */
export interface StoredEvent {
  seq: number;
  ts: number;
  session: string | null;
  kind: string;
  data: unknown;
}
