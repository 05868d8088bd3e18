import { FetchStore } from "@zarrkit/store-fetch";
import * as zarr from "zarrita";
import * as zk from "zarrkit";
import type { LatencyServer } from "./http/latency-server-client.js";
import { RequestCounter, type RequestStats } from "./request-stats.js";
import { countingZarritaStore, type ZarritaStore, zarritaFileSystemStore } from "./zarrita-stores.js";

/** Where the arrays are read from, with each peer's own store for it and a request tally. */
export interface Source {
  kind: "local" | "http";
  zarritaStore(): Promise<ZarritaStore>;
  zarrkitStore(): zk.Store;
  resetStats(): Promise<void>;
  stats(): Promise<RequestStats>;
}

/** A directory, counted by wrappers around each peer's file store. */
export class LocalSource implements Source {
  readonly kind = "local";
  private readonly counter = new RequestCounter();

  constructor(readonly root: string) {}

  async zarritaStore(): Promise<ZarritaStore> {
    return countingZarritaStore(await zarritaFileSystemStore(this.root), this.counter);
  }

  zarrkitStore(): zk.Store {
    return zk.withRequestLog(new zk.FileSystemStore(this.root), (request) => {
      if (WRITES.has(request.method)) this.counter.wrote(request.bytes);
      else this.counter.read(request.bytes);
    });
  }

  async resetStats(): Promise<void> {
    this.counter.reset();
  }

  async stats(): Promise<RequestStats> {
    return this.counter.snapshot();
  }
}

const WRITES = new Set<zk.StoreRequest["method"]>(["set", "delete", "append", "setRange", "truncate"]);

/** The same directory behind the latency server; the server counts requests and the bytes it sends. */
export class HttpSource implements Source {
  readonly kind = "http";

  constructor(
    private readonly server: LatencyServer,
    /** Directory under the server's root, e.g. "full/". */
    private readonly prefix: string,
  ) {}

  private get url(): string {
    return `${this.server.url}${this.prefix}`;
  }

  async zarritaStore(): Promise<ZarritaStore> {
    // Read-only; the write half of the type is never used over HTTP.
    return new zarr.FetchStore(this.url) as unknown as ZarritaStore;
  }

  zarrkitStore(): zk.Store {
    return new FetchStore(this.url);
  }

  resetStats(): Promise<void> {
    return this.server.reset();
  }

  stats(): Promise<RequestStats> {
    return this.server.stats();
  }
}
