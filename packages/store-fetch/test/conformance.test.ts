import { describeStoreConformance, unsafeKeys } from "@zarrkit/test-utils";
import { FetchStore } from "../src/index.js";
// The readers of lent windows, which the conformance checks run on this thread (workers import them themselves).
import "../src/fetch-range-reader.js";
import { fileServer, startServer } from "./http-server.js";

const fast = { retries: 0 };

describeStoreConformance(
  "FetchStore (writable, Range supported)",
  async () => {
    const server = await startServer(fileServer({ writable: true }).handler);
    return {
      store: new FetchStore(server.url, { writable: true, retry: fast, workerFetches: true }),
      cleanup: server.close,
    };
  },
  { invalidKeys: unsafeKeys },
);

describeStoreConformance(
  "FetchStore (writable, server ignores Range)",
  async () => {
    const server = await startServer(fileServer({ writable: true, ranges: false }).handler);
    return {
      store: new FetchStore(server.url, { writable: true, retry: fast, workerFetches: true }),
      cleanup: server.close,
    };
  },
  { invalidKeys: unsafeKeys },
);

describeStoreConformance(
  "FetchStore (read-only)",
  async () => {
    const files = fileServer();
    const server = await startServer(files.handler);
    return {
      store: new FetchStore(server.url, { retry: fast }),
      seed: async (key, value) => files.put(key, value.slice()),
      cleanup: server.close,
    };
  },
  { invalidKeys: unsafeKeys },
);

// Values replaced behind the store's back while it caches whole bodies: reads with ifMatch must still notice.
describeStoreConformance(
  "FetchStore (read-only, server ignores Range)",
  async () => {
    const files = fileServer({ ranges: false });
    const server = await startServer(files.handler);
    return {
      store: new FetchStore(server.url, { retry: fast }),
      seed: async (key, value) => files.put(key, value.slice()),
      cleanup: server.close,
    };
  },
  { invalidKeys: unsafeKeys },
);
