/**
 * The shared file of the line-claim tests: four small functions, each a hunk of its own that
 * stays more than the ±3-line margin away from the next, so two agents can each change one.
 */
const fn = (name: string, body: string) =>
  `export function ${name}() {\n  const a = 1;\n  const b = 2;\n  return ${body};\n}\n\n`;

/** `alpha` returns `a;`, `beta` `b;`, `gamma` `a + b;`, `delta` `0;`. */
export const FOUR_FUNCTIONS = fn("alpha", "a") + fn("beta", "b") + fn("gamma", "a + b") + fn("delta", "0");
