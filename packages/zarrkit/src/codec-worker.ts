// The codec worker of zarrkit in browsers: registers every built-in codec and
// the readers of ranges FetchStore lends (the workers fetch shards
// themselves), then serves codec work (see index.ts, which starts it).
// esbuild users add it as an entry point of its own named codec-worker (see
// the README).
import "@zarrkit/codecs";
import "@zarrkit/crc32c";
import "@zarrkit/sharding";
import "@zarrkit/store-fetch/range-reader";
import "@zarrkit/core/worker";
