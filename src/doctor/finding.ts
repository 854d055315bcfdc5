/** One line of `tandem doctor`'s report: every check returns these, the command formats them. */
export interface Finding {
  level: "ok" | "info" | "problem";
  check: string;
  detail: string;
  /** What to do about a problem. */
  fix?: string;
}
