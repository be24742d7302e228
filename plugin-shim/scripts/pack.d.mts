/** The 7-bit groups that a string literal cannot hold raw. */
export const FORBIDDEN: number[];
/** pack returns bytes as the content of a JavaScript string literal, 8/7 of their size. */
export function pack(bytes: Uint8Array): string;
