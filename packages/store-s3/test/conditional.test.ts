import { PreconditionFailedError } from "@zarrkit/registry";
import { describe, expect, it } from "vitest";
import { recordingFetch } from "./recording-fetch.js";
import { rgw, rgwStore } from "./rgw.js";

const text = (value: string) => new TextEncoder().encode(value);
const decode = (value: Uint8Array | undefined) => new TextDecoder().decode(value);

describe.skipIf(!rgw)("conditional writes on radosgw", () => {
  it("of two writers rewriting one value from the same version, one gets PreconditionFailedError", async () => {
    const first = rgwStore();
    // A second store object stands for a second process: nothing shared but the bucket.
    const second = rgwStore({ prefix: first.prefix });
    await first.set("shard", text("base"));
    const [a, b] = await Promise.all([first.getVersioned("shard"), second.getVersioned("shard")]);
    expect(a!.version).toBe(b!.version);
    const results = await Promise.allSettled([
      first.set("shard", text("from first"), { ifMatch: a!.version }),
      second.set("shard", text("from second"), { ifMatch: b!.version }),
    ]);
    const rejected = results.filter((r) => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(PreconditionFailedError);
    expect((rejected[0] as PromiseRejectedResult).reason.key).toBe("shard");
    const winner = results[0].status === "fulfilled" ? "from first" : "from second";
    expect(decode(await first.get("shard"))).toBe(winner);
  });

  it("writers that retry on PreconditionFailedError never lose an update", async () => {
    const prefix = rgwStore().prefix;
    const writers = [rgwStore({ prefix }), rgwStore({ prefix }), rgwStore({ prefix })] as const;
    await writers[0].set("counter", text("[]"), { ifNoneMatch: "*" });
    // Each writer appends its id to a JSON list 5 times by read-modify-write.
    await Promise.all(
      writers.map(async (store, id) => {
        for (let n = 0; n < 5; n++) {
          for (;;) {
            const current = (await store.getVersioned("counter"))!;
            const list = JSON.parse(decode(current.value)) as number[];
            try {
              await store.set("counter", text(JSON.stringify([...list, id])), { ifMatch: current.version });
              break;
            } catch (error) {
              if (!(error instanceof PreconditionFailedError)) throw error;
            }
          }
        }
      }),
    );
    const final = JSON.parse(decode(await writers[0].get("counter"))) as number[];
    expect(final).toHaveLength(15);
    for (const id of [0, 1, 2]) expect(final.filter((x) => x === id)).toHaveLength(5);
  });

  it("sends If-Match without quotes once radosgw has refused the quoted ETag", async () => {
    const { fetch, requests } = recordingFetch();
    const store = rgwStore({ fetch });
    await store.set("k", text("v1"));
    const { version } = (await store.getVersioned("k"))!;
    expect(version).toMatch(/^"[0-9a-f]+"$/);
    requests.length = 0;
    await store.set("k", text("v2"), { ifMatch: version });
    // radosgw 16 refuses the quoted form (AWS's), then accepts the bare one.
    expect(requests.map((r) => r.headers.get("if-match"))).toEqual([version, version.slice(1, -1)]);
    const next = (await store.getVersioned("k"))!.version;
    requests.length = 0;
    await store.set("k", text("v3"), { ifMatch: next });
    expect(requests.map((r) => r.headers.get("if-match"))).toEqual([next.slice(1, -1)]);
    expect(decode(await store.get("k"))).toBe("v3");
  });

  it('ifNoneMatch: "*" sends If-None-Match and refuses to replace', async () => {
    const store = rgwStore();
    await store.set("zarr.json", text("{}"), { ifNoneMatch: "*" });
    await expect(store.set("zarr.json", text("{ }"), { ifNoneMatch: "*" })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect(decode(await store.get("zarr.json"))).toBe("{}");
  });
});
