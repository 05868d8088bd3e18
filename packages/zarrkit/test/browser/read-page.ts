// A page reading a whole sharded zstd array over HTTP with zarrkit's default
// settings (codec workers on), for browser-workers.test.ts.
import { codecWorkerStats, FetchStore, openArray } from "zarrkit";
import { expectedValue } from "./expected-value.js";

async function readAll(url: string) {
  const array = await openArray(new FetchStore(url), "volume");
  const { data } = await array.get(null);
  const values = data as Uint16Array;
  let mismatches = 0;
  for (let i = 0; i < values.length; i++) if (values[i] !== expectedValue(i)) mismatches++;
  return { length: values.length, mismatches, stats: codecWorkerStats() };
}

Object.assign(window, { readAll });
