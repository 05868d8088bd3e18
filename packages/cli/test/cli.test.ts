import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fixturePath } from "@zarrkit/test-utils/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, SHARDED, VOLUME, voxel } from "./generate.js";
import { hasNumpy, numpyLoad, run, type StaticServer, serveFolder } from "./helpers.js";

let root: string;
let server: StaticServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "zarrkit-cli-"));
  await generate(root);
  server = await serveFolder(root);
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The built bin under plain Node (no workspace loader): what `npx zarrkit` runs. */
function runBuilt(bin: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe("help", () => {
  it("zarrkit --help lists every command; no command is a usage error", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const name of ["info", "tree", "get"]) expect(help.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain("Commands:");
  });

  it.each(["info", "tree", "get"])("%s --help shows usage and examples", async (name) => {
    const { code, stdout, stderr } = await run([name, "--help"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toMatch(new RegExp(`^Usage: zarrkit ${name} <url>`));
    expect(stdout).toMatch(new RegExp(`Examples:\\n  zarrkit ${name} `));
  });
});

describe("the bin", () => {
  it("starts with a shebang, and the built one (when built) runs", async () => {
    const source = await readFile(new URL("../src/bin.ts", import.meta.url), "utf8");
    expect(source.startsWith("#!/usr/bin/env node\n")).toBe(true);
    const built = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
    if (!existsSync(built)) {
      console.warn(`[zarrkit] skipping the built bin: ${built} is absent (run pnpm build)`);
      return;
    }
    expect((await readFile(built, "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
    const { code, stdout } = await runBuilt(built, ["info", join(root, "gen.zarr/sub/sharded"), "--json"]);
    expect(code).toBe(0);
    expect(json(stdout)).toMatchObject({
      shards: { ...SHARDED.shards, bytes: SHARDED.bytes },
      innerChunks: SHARDED.innerChunks,
    });
  });
});

describe("info", () => {
  const checkSharded = (report: Record<string, unknown>) => {
    expect(report).toMatchObject({
      format: "zarr-v3",
      node: "array",
      shape: SHARDED.shape,
      dataType: "int32",
      chunkShape: SHARDED.chunkShape,
      shardShape: SHARDED.shardShape,
      shards: { ...SHARDED.shards, bytes: SHARDED.bytes },
      innerChunks: SHARDED.innerChunks,
      bytesPerInnerChunk: 24,
      compressionRatio: 1,
      indexLocation: "end",
      fillValue: 0,
    });
    expect((report.codecs as { name: string }[]).map((c) => c.name)).toEqual(["sharding_indexed"]);
  };

  it("--json on a generated sharded array (filesystem, listing): exact shard statistics", async () => {
    const { code, stdout } = await run(["info", join(root, "gen.zarr/sub/sharded"), "--json"]);
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    checkSharded(json(stdout));
  });

  it("--json over HTTP (no listing: probes every shard key of the grid)", async () => {
    server.requests.length = 0;
    const { code, stdout, stderr } = await run([
      "info",
      `${server.url}gen.zarr/sub/sharded`,
      "--json",
      "--concurrency",
      "2",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    checkSharded(json(stdout));
    // The absent shards were asked for, too.
    for (const absent of ["c/1/0", "c/1/1", "c/2/0"])
      expect(server.requests.some((r) => r.includes(`/gen.zarr/sub/sharded/${absent}`))).toBe(true);
  });

  it("text output states shards, inner chunks, bytes and compression ratio", async () => {
    const { code, stdout } = await run(["info", `file://${join(root, "gen.zarr/sub/sharded")}`]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^shards: +3 of 6 present, 420 B stored$/m);
    expect(stdout).toMatch(/^inner chunks: +9 of 20 present$/m);
    expect(stdout).toMatch(/^bytes\/inner chunk: +24\.0$/m);
    expect(stdout).toMatch(/^compression ratio: +1\.00x$/m);
    expect(stdout).toMatch(/^index location: +end$/m);
  });

  it("--json on unsharded v3 and v2 arrays: shard fields are null", async () => {
    const v3 = json((await run(["info", join(root, "gen.zarr/plain"), "--json"])).stdout);
    expect(v3).toMatchObject({
      format: "zarr-v3",
      shape: [5, 4],
      dataType: "uint16",
      chunkShape: [2, 2],
      shardShape: null,
      shards: null,
      innerChunks: null,
    });
    const v2 = json((await run(["info", `${server.url}gen-v2.zarr`, "--json"])).stdout);
    expect(v2).toMatchObject({
      format: "zarr-v2",
      shape: [4, 3],
      dataType: "int32",
      dtype: ">i4",
      chunkShape: [2, 2],
      shardShape: null,
      codecs: [],
      shards: null,
      innerChunks: null,
    });
  });

  it("--json on a group and on a precomputed volume (filesystem and HTTP)", async () => {
    const group = json((await run(["info", join(root, "gen.zarr"), "--json"])).stdout);
    expect(group).toMatchObject({
      format: "zarr-v3",
      node: "group",
      children: ["complex", "half-be", "plain", "sub"],
      attributes: { made: "by test" },
    });
    for (const url of [`precomputed://${join(root, "vol")}`, `precomputed://${server.url}vol`]) {
      const { code, stdout } = await run(["info", url, "--json"]);
      expect(code).toBe(0);
      const report = json(stdout);
      expect(report).toMatchObject({
        format: "precomputed",
        node: "volume",
        shape: [...VOLUME.size, 1],
        dataType: "uint16",
        chunkShape: [...VOLUME.chunk, 1],
      });
      expect((report.scales as { sharding: { "@type": string } }[])[0]!.sharding["@type"]).toBe(
        "neuroglancer_uint64_sharded_v1",
      );
    }
  });

  it("--json on the zarr-python v3 fixture's sharded arrays: bytes equal the shard files", async () => {
    const dir = fixturePath("zarr-python-v3.zarr");
    if (!dir) return;
    const name = "3d.chunked.mixed.compressed.sharded.i2";
    const { code, stdout } = await run(["info", join(dir, name), "--json"]);
    expect(code).toBe(0);
    const size = (await stat(join(dir, name, "c/0/0/0"))).size;
    expect(json(stdout)).toMatchObject({
      format: "zarr-v3",
      shape: [3, 3, 3],
      dataType: "int16",
      chunkShape: [3, 3, 1],
      shardShape: [3, 3, 3],
      shards: { total: 1, present: 1, bytes: size },
      innerChunks: { total: 3, present: 3 },
    });
    // Shards of 2 inner chunks over [1,2,3,4]: 2 shards, 4 inner chunks.
    const one = json((await run(["info", join(dir, "1d.chunked.compressed.sharded.i2"), "--json"])).stdout);
    expect(one).toMatchObject({ shape: [4], shards: { total: 2, present: 2 }, innerChunks: { total: 4, present: 4 } });
    // [1,2,0,0] with fill 0: the second shard is all fill and not stored.
    const filled = json((await run(["info", join(dir, "1d.chunked.filled.compressed.sharded.i2"), "--json"])).stdout);
    expect(filled).toMatchObject({ shards: { total: 2, present: 1 }, innerChunks: { total: 4, present: 2 } });
  });

  it("--json on the zarr-python v2 fixture", async () => {
    const dir = fixturePath("zarr-python-v2.zarr");
    if (!dir) return;
    const { code, stdout } = await run(["info", join(dir, "1d.contiguous.U13.be"), "--json"]);
    expect(code).toBe(0);
    expect(json(stdout)).toMatchObject({
      format: "zarr-v2",
      shape: [4],
      dtype: ">U13",
      shardShape: null,
      shards: null,
      innerChunks: null,
    });
  });
});

describe("tree", () => {
  it("shows the generated hierarchy with shapes and data types", async () => {
    const { code, stdout } = await run(["tree", join(root, "gen.zarr")]);
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toEqual([
      "/ (zarr-v3 group)",
      "├── complex [3] complex64",
      "├── half-be [3] float16",
      "├── plain [5, 4] uint16",
      "└── sub/",
      "    └── sharded [10, 12] int32 shards [4, 6] of chunks [2, 3]",
    ]);
  });

  it.each(["zarr-python-v3", "zarr-python-v2"])(
    "lists every array of the %s fixture with its shape and data type",
    async (fixture) => {
      const dir = fixturePath(`${fixture}.zarr`);
      if (!dir) return;
      const expected = JSON.parse(await readFile(`${dir.slice(0, -5)}.expected.json`, "utf8")) as {
        arrays: Record<string, { shape: number[]; data_type?: string }>;
      };
      const { code, stdout } = await run(["tree", dir]);
      expect(code).toBe(0);
      for (const [path, array] of Object.entries(expected.arrays)) {
        const name = path.split("/").at(-1)!;
        const type = array.data_type ? ` ${array.data_type}` : "";
        expect(stdout, path).toContain(`── ${name} [${array.shape.join(", ")}]${type}`);
      }
    },
  );

  it("uses consolidated metadata over HTTP, where the store cannot list (v3 fixture)", async () => {
    const dir = fixturePath("zarr-python-v3.zarr");
    if (!dir) return;
    const fixtures = await serveFolder(join(dir, ".."));
    try {
      const local = await run(["tree", join(dir, "consolidated")]);
      const remote = await run(["tree", `${fixtures.url}zarr-python-v3.zarr/consolidated`]);
      expect(remote.code, remote.stderr).toBe(0);
      expect(remote.stdout).toBe(local.stdout);
      expect(remote.stdout).toContain("── 1d.chunked.i2 [4] int16");
      expect(remote.stdout).toContain("── nested/");
      // Only the group's own metadata was read: no request per child.
      expect(fixtures.requests.filter((r) => r.endsWith("/zarr.json"))).toEqual([
        "GET /zarr-python-v3.zarr/consolidated/zarr.json",
      ]);
    } finally {
      await fixtures.close();
    }
  });
});

describe("get", () => {
  it(
    "prints selections: slices with steps, negative indices, trailing dimensions omitted (files " + "and HTTP)",
    async () => {
      for (const base of [join(root, "gen.zarr"), `${server.url}gen.zarr`]) {
        expect((await run(["get", `${base}/plain`, "--select", "1:4:2,-1"])).stdout.trim()).toBe("[7, 15]");
        expect((await run(["get", `${base}/plain`, "--select", "-1"])).stdout.trim()).toBe("[16, 17, 18, 19]");
        expect((await run(["get", `${base}/plain`, "--select", "::2, 1:"])).stdout.trim()).toBe(
          "[[1, 2, 3],\n [9, 10, 11],\n [17, 18, 19]]",
        );
        expect((await run(["get", `${base}/sub/sharded`, "--select", "9,10:"])).stdout.trim()).toBe("[0, 7]");
      }
      expect((await run(["get", join(root, "gen.zarr/complex")])).stdout.trim()).toBe("[1+2j, -3+4.5j, 0-1j]");
      expect((await run(["get", join(root, "gen-v2.zarr"), "--select", "3"])).stdout.trim()).toBe("[4, 5, 6]");
      expect((await run(["get", join(root, "gen.zarr/plain"), "--select", "2,3"])).stdout.trim()).toBe("11");
    },
  );

  it(
    "s3:// takes its endpoint, region and keys from the AWS_* variables (a path-style bucket served by the " +
      "test server)",
    async () => {
      server.requests.length = 0;
      server.authorizations.length = 0;
      const env = {
        AWS_ENDPOINT_URL: server.url,
        AWS_ACCESS_KEY_ID: "AKIDTEST",
        AWS_SECRET_ACCESS_KEY: "secret",
        AWS_REGION: "eu-west-1",
      };
      const { code, stdout, stderr } = await run(["get", "s3://gen.zarr/plain", "--select", "-1"], env);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(stdout.trim()).toBe("[16, 17, 18, 19]");
      expect(server.requests[0]).toBe("GET /gen.zarr/plain/zarr.json");
      expect(server.authorizations[0]).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/s3\/aws4_request/,
      );
    },
  );

  it("reads a precomputed volume as [x, y, z, c] (files and HTTP)", async () => {
    for (const url of [`precomputed://${join(root, "vol")}`, `precomputed://${server.url}vol`]) {
      const { code, stdout } = await run(["get", url, "--select", "5:8,4,3,0"]);
      expect(code).toBe(0);
      expect(stdout.trim()).toBe(`[${[5, 6, 7].map((x) => voxel(x, 4, 3)).join(", ")}]`);
    }
  });

  it("--out FILE writes raw little-endian bytes", async () => {
    const out = join(root, "plain.raw");
    const { code, stderr } = await run(["get", join(root, "gen.zarr/plain"), "--select", "4", "--out", out]);
    expect(code).toBe(0);
    expect(stderr).toContain("wrote 4 <u2 values");
    expect(new Uint16Array(new Uint8Array(await readFile(out)).buffer)).toEqual(Uint16Array.from([16, 17, 18, 19]));
  });

  it(
    "--out x.npy of generated arrays reads back with numpy (complex, float16 big-endian, v2 big-endian, sharded " +
      "over HTTP, precomputed)",
    async () => {
      if (!(await hasNumpy())) return;
      const cases: [string, string[], { descr: string; shape: number[]; data: unknown[] }][] = [
        [join(root, "gen.zarr/half-be"), [], { descr: ">f2", shape: [3], data: [1.5, -2, 0.25] }],
        [
          join(root, "gen.zarr/complex"),
          [],
          {
            descr: "<c8",
            shape: [3],
            data: [
              [1, 2],
              [-3, 4.5],
              [0, -1],
            ],
          },
        ],
        [join(root, "gen-v2.zarr"), ["--select", "1:3"], { descr: ">i4", shape: [2, 3], data: [-2, -1, 0, 1, 2, 3] }],
        [
          `${server.url}gen.zarr/sub/sharded`,
          ["--select", "3:5,10:"],
          { descr: "<i4", shape: [2, 2], data: [47, 48, 0, 0] },
        ],
        [
          `precomputed://${server.url}vol`,
          ["--select", "0:2,0,0:4:3"],
          { descr: "<u2", shape: [2, 2, 1], data: [0, 300, 1, 301] },
        ],
      ];
      for (const [i, [url, select, expected]] of cases.entries()) {
        const file = join(root, `case${i}.npy`);
        const { code, stderr } = await run(["get", url, ...select, "--out", file]);
        expect(stderr).toMatch(/^wrote /);
        expect(code).toBe(0);
        expect(await numpyLoad(file), url).toEqual(expected);
      }
    },
  );

  it.each([
    [
      "zarr-python-v3",
      [
        "1d.contiguous.b1",
        "1d.contiguous.f2.le",
        "1d.contiguous.f4.be",
        "1d.contiguous.f8",
        "1d.string.unicode",
        "1d.chunked.string.vlen",
        "3d.chunked.mixed.i2.F",
        "2d.chunked.ragged.compressed.sharded.i2",
        "1d.contiguous.u1",
      ],
    ],
    [
      "zarr-python-v2",
      [
        "1d.contiguous.U13.be",
        "1d.contiguous.U7",
        "1d.contiguous.S7",
        "1d.contiguous.f4.be",
        "1d.contiguous.b1",
        "3d.chunked.mixed.i2.F",
        "2d.chunked.U7",
      ],
    ],
  ])("--out x.npy of the %s fixture's arrays equals the expected values (numpy)", async (fixture, names) => {
    const dir = fixturePath(`${fixture}.zarr`);
    if (!dir || !(await hasNumpy())) return;
    const expected = JSON.parse(await readFile(`${dir.slice(0, -5)}.expected.json`, "utf8")) as {
      arrays: Record<string, { shape: number[]; dtype?: string; data: unknown[] }>;
    };
    for (const name of names) {
      const file = join(root, `${fixture}-${name}.npy`);
      const { code, stderr } = await run(["get", join(dir, name), "--out", file]);
      expect(code, stderr).toBe(0);
      const loaded = await numpyLoad(file);
      const want = expected.arrays[name]!;
      expect(loaded.shape, name).toEqual(want.shape);
      expect(loaded.data, name).toEqual(want.data);
      if (want.dtype && !want.dtype.startsWith("|O")) expect(loaded.descr, name).toBe(want.dtype);
    }
  });
});

describe("bad input", () => {
  const plain = () => join(root, "gen.zarr/plain");
  const usage = async (args: string[], message: RegExp, command = args[0]) => {
    const { code, stdout, stderr } = await run(args);
    expect(code, stderr).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).toContain(command && command !== "frobnicate" ? `"zarrkit ${command} --help"` : '"zarrkit --help"');
  };

  it("unknown flags, flags without values, missing and surplus arguments exit 2 naming them", async () => {
    await usage(["info", plain(), "--nope"], /unknown option --nope/);
    await usage(["get", plain(), "--select"], /option --select needs a value/);
    await usage(["info", plain(), "--json=yes"], /option --json takes no value/);
    await usage(["get"], /missing argument <url>/);
    await usage(["tree", plain(), "extra"], /unexpected argument "extra"/);
    await usage(["info", plain(), "--concurrency", "0"], /--concurrency "0": expected a positive integer/);
    await usage(["frobnicate"], /unknown command "frobnicate"/);
    await usage(["info", "ftp://host/x"], /unsupported store URL scheme "ftp:\/\/"/);
  });

  it("bad selections exit 2 naming the bad value", async () => {
    await usage(["get", plain(), "--select", "1:a"], /bad --select: stop of dimension 0 "a" is not an integer/);
    await usage(["get", plain(), "--select", "0,0,0"], /3 dimensions, but the array has 2/);
    await usage(["get", plain(), "--select", "::0"], /step 0 of dimension 0 must be at least 1/);
    await usage(["get", plain(), "--select", "1,"], /dimension 1 is empty/);
    await usage(["get", plain(), "--select", "7"], /bad --select: Index 7 is out of bounds for dimension 0 of size 5/);
    await usage(["get", join(root, "gen.zarr")], /is a group, not an array/);
  });

  it("unreadable sources exit 1 with one line and no stack trace, unless --debug", async () => {
    for (const url of [
      join(root, "missing.zarr"),
      `${server.url}missing.zarr`,
      `precomputed://${join(root, "missing")}`,
    ]) {
      const { code, stdout, stderr } = await run(["info", url]);
      expect(code, url).toBe(1);
      expect(stdout).toBe("");
      expect(stderr.trim().split("\n"), stderr).toHaveLength(1);
      expect(stderr).toMatch(/^zarrkit: NotFoundError: /);
    }
    const debug = await run(["get", join(root, "missing.zarr"), "--debug"]);
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it("a corrupt shard index fails with the typed error naming the key", async () => {
    const { writeFile } = await import("node:fs/promises");
    const { cp } = await import("node:fs/promises");
    const copy = join(root, "corrupt.zarr");
    await cp(join(root, "gen.zarr/sub/sharded"), copy, { recursive: true });
    const shard = join(copy, "c/0/0");
    const bytes = new Uint8Array(await readFile(shard));
    bytes[bytes.length - 10]! ^= 0xff;
    await writeFile(shard, bytes);
    const { code, stderr } = await run(["info", copy]);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^zarrkit: ChecksumError: .*c\/0\/0/);
  });
});
