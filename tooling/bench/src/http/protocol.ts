import type { RequestStats } from "../request-stats.js";

/** Parent to latency server. */
export type ServerRequest = "stats" | "reset";

/** Latency server to parent: its port once listening, then one reply per request. */
export type ServerReply = { port: number } | { stats: RequestStats };
