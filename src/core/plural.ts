/** "1 claim", "2 claims": counts a person or a model reads are never "1 claims". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
