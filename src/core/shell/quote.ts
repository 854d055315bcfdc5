/** Shell quoting lives in the core's lowest room (src/core/quote.ts), so every core room can print commands. */
export { shellQuote } from "../quote.js";
