/** Parses a duration such as `90s`, `45m`, `2h` or `1d` into milliseconds; null if it is not one. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/.exec(text.trim());
  if (!m) return null;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "s" | "m" | "h" | "d"];
  const ms = Math.round(Number(m[1]) * unit);
  return ms > 0 ? ms : null;
}
