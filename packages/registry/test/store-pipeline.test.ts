import { describe, expect, it } from "vitest";
import {
  openStore,
  parseStorePipeline,
  registerStore,
  registerStoreAdapter,
  type Store,
  StoreError,
} from "../src/index.js";

/** A store that says where it was opened: the folder URL, or the adapter, value key and path it wraps. */
function labelled(label: string): Store & { label: string } {
  return { label, get: async () => undefined };
}

registerStore("pipe-test", (url) => labelled(url.href));
registerStoreAdapter(
  "box",
  ({ store, key }, path) => labelled(`box(${(store as Store & { label: string }).label} ${key})/${path}`),
  {
    suffixes: [".box"],
  },
);

const labelOf = async (url: string) => ((await openStore(url)) as Store & { label: string }).label;

describe("URL pipelines", () => {
  it("open the value's folder, then each adapter over the value before it", async () => {
    expect(await labelOf("pipe-test://host/data/image.ozx|box:")).toBe("box(pipe-test://host/data/ image.ozx)/");
    expect(await labelOf("pipe-test://host/x.zip|box:path/inside/")).toBe("box(pipe-test://host/ x.zip)/path/inside");
    expect(await labelOf("pipe-test://host/outer.zip|box:inner.zip|box:a")).toBe(
      "box(box(pipe-test://host/ outer.zip)/ inner.zip)/a",
    );
  });

  it("open a plain URL of a file with a claimed suffix through its adapter", async () => {
    expect(await labelOf("pipe-test://host/a/IMAGE.BOX")).toBe("box(pipe-test://host/a/ IMAGE.BOX)/");
    expect(await labelOf("pipe-test://host/a/image.zarr")).toBe("pipe-test://host/a/image.zarr");
    expect(parseStorePipeline("pipe-test://host/a/image.zarr")).toBeUndefined();
  });

  it("refuse bad pipelines with a StoreError naming the segment", async () => {
    const refused = (url: string) =>
      openStore(url).then(
        () => expect.unreachable(`${url} opened`),
        (error: unknown) => error as StoreError,
      );
    const unknown = await refused("pipe-test://host/a.zip|nothing:");
    expect(unknown).toBeInstanceOf(StoreError);
    expect(unknown.message).toMatch(/segment 1 "nothing:" names no registered adapter \(registered: .*box:/);
    expect(unknown.field).toBe("segment 1");
    expect((await refused("pipe-test://host/a.zip|box:|box:")).message).toMatch(/segment 1 "box:" needs a path/);
    expect((await refused("pipe-test://host/a.zip|box:x|zip")).message).toMatch(/segment 2 "zip" is not of the form/);
    expect((await refused("|box:")).message).toMatch(/no store URL before its first "\|"/);
    expect((await refused("pipe-test://host/dir/|box:")).message).toMatch(/names no file/);
    expect(() => registerStoreAdapter("Bad Name", () => labelled(""))).toThrow(StoreError);
    // A suffix without its dot would claim every URL ending in those letters ("azip").
    expect(() => registerStoreAdapter("box2", () => labelled(""), { suffixes: ["zip"] })).toThrow(
      /suffix "zip" must be a file ending with its dot/,
    );
  });
});
