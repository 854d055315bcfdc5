/** `few` placed evenly among `many`, each list keeping its order; the first of `few` leads. */
export function spread<T>(few: readonly T[], many: readonly T[]): T[] {
  if (few.length === 0) return [...many];
  const out: T[] = [];
  const gap = many.length / few.length;
  let next = 0;
  few.forEach((item, i) => {
    out.push(item);
    const until = Math.round((i + 1) * gap);
    while (next < until) out.push(many[next++] as T);
  });
  while (next < many.length) out.push(many[next++] as T);
  return out;
}
