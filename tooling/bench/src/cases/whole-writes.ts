import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as zarr from "zarrita";
import * as zk from "zarrkit";
import { checkBox, wholeBox } from "../check.js";
import { type Contender, contest } from "../contest.js";
import { zarrkitZstd, zarrkitCrc32c } from "../direct-codecs.js";
import { floorWrite } from "../floor.js";
import { BYTES_LE, definition, type Form, form, formTitle } from "../forms.js";
import type { CaseResult } from "../results.js";
import { LocalSource } from "../sources.js";
import type { SuiteContext } from "../suite-context.js";
import { comparedRounds, runningChild, tensorstoreWrite, valuesLoader } from "../tensorstore/contenders.js";

interface WriteRow {
  id: string;
  /** Default: the form's description. */
  title?: string;
  form: Form;
  /** Inner codecs, when not the form's own. */
  codecs?: zk.CodecMetadata[];
  /** zarrita.js writes only unsharded arrays. */
  zarrita: boolean;
  /** The level the floor compresses at: what zarrkit writes for the row's metadata. */
  floorLevel: number;
  /** Also time the floor with an fsync per file (zarrkit's writes are atomic: temporary file, fsync, rename). */
  fsyncFloor: boolean;
}

const ZSTD_1 = { name: "zstd", configuration: { level: 1, checksum: false } };

const ROWS: readonly WriteRow[] = [
  {
    id: "write/raw",
    title: "write whole array, unsharded, uncompressed",
    form: form("raw"),
    zarrita: true,
    floorLevel: 0,
    fsyncFloor: true,
  },
  // zarrkit writes level 0 as zstd's default, 3; numcodecs (so zarrita) as its own default, 1.
  {
    id: "write/zstd",
    title: "write whole array, unsharded, zstd 0 (zarrkit: level 3, zarrita: level 1)",
    form: form("zstd"),
    zarrita: true,
    floorLevel: 3,
    fsyncFloor: true,
  },
  {
    id: "write/zstd1",
    title: "write whole array, unsharded, zstd 1 (same level for all)",
    form: form("zstd"),
    codecs: [BYTES_LE, ZSTD_1],
    zarrita: true,
    floorLevel: 1,
    fsyncFloor: false,
  },
  // The sharded forms (zstd 0: level 3); all but the first only for issue 20's comparison with tensorstore.
  ...(["sharded", "sharded-raw", "sharded-other", "sharded-other-raw"] as const).map((name) => ({
    id: `write/${name}`,
    form: form(name),
    zarrita: false,
    floorLevel: form(name).compressed ? 3 : 0,
    fsyncFloor: true,
  })),
];

/** The rows the profile writes: its own forms, and those compared with tensorstore when it runs. */
function rowsOf(ctx: SuiteContext): WriteRow[] {
  const compared = runningChild(ctx.tensorstore) ? ctx.profile.tensorstoreForms : [];
  const forms: string[] = [...ctx.profile.writeForms, ...compared];
  return ROWS.filter((row) => forms.includes(row.form.name));
}

/**
 * Case 6, first half: write the whole array, each form, into an emptied
 * scratch directory per run; tensorstore too, the forms of issue 20's
 * comparison, with the metadata zarrkit writes (what it wrote is read back by zarrkit).
 */
export async function wholeWrites(ctx: SuiteContext, data: Uint16Array): Promise<CaseResult[]> {
  const { profile, content } = ctx;
  const dir = join(ctx.scratchRoot, "write");
  const shape = [profile.size, profile.size, profile.size];
  const checksum = await zarrkitCrc32c();
  const tensorstore = runningChild(ctx.tensorstore);
  const loadValues = tensorstore ? valuesLoader(tensorstore, ctx.scratchRoot, data, shape) : async () => {};
  const results: CaseResult[] = [];
  for (const row of rowsOf(ctx)) {
    const options: zk.CreateArrayOptions = {
      ...definition(row.form, profile),
      ...(row.codecs ? { codecs: row.codecs } : {}),
    };
    /** Reads back what a run wrote (metadata first, for the floor, which writes chunks only). */
    const readBack = async (who: string, writeMetadata: boolean) => {
      const store = new zk.FileSystemStore(dir);
      const array = writeMetadata
        ? await zk.createArray(store, row.form.path, options)
        : await zk.openArray(store, row.form.path);
      checkBox(content, (await array.get()).data as Uint16Array, wholeBox(profile.size), `${who} ${row.id}`);
    };
    const source = new LocalSource(dir);
    const contenders: Contender[] = [
      {
        name: "zarrkit",
        source,
        async prepare(checking) {
          rmSync(dir, { recursive: true, force: true });
          const store = source.zarrkitStore();
          return async () => {
            const array = await zk.createArray(store, row.form.path, options);
            await array.set(null, { data, shape });
            if (checking) await readBack("zarrkit", false);
          };
        },
      },
    ];
    if (row.zarrita) {
      contenders.push({
        name: "zarrita",
        source,
        async prepare(checking) {
          rmSync(dir, { recursive: true, force: true });
          const store = await source.zarritaStore();
          return async () => {
            const array = await zarr.create(zarr.root(store).resolve(`/${row.form.path}`), {
              shape,
              chunkShape: options.chunkShape as number[],
              dtype: "uint16",
              codecs: options.codecs as zarr.CodecMetadata[],
              fillValue: 0,
            });
            await zarr.set(array, null, { data, shape, stride: [profile.size ** 2, profile.size, 1] });
            if (checking) await readBack("zarrita", false);
          };
        },
      });
    }
    const zstd = await zarrkitZstd(row.floorLevel);
    // Rows only the comparison with tensorstore asks for time zarrkit and tensorstore alone (bench:quick's budget).
    const floors = !profile.writeForms.includes(row.form.name) ? [] : row.fsyncFloor ? [false, true] : [false];
    for (const fsync of floors) {
      const name = fsync ? "floor+fsync" : "floor";
      contenders.push({
        name,
        async prepare(checking) {
          rmSync(dir, { recursive: true, force: true });
          return async () => {
            await floorWrite(dir, row.form, profile, data, {
              zstd,
              checksum: { encode: (b) => checksum.encode(b, { key: "index" }) },
              fsync,
            });
            if (checking) await readBack(name, true);
          };
        },
      });
    }
    const compared = profile.tensorstoreForms.includes(row.form.name) ? tensorstore : undefined;
    if (compared) {
      const key = `${row.form.path}/zarr.json`;
      contenders.push(
        tensorstoreWrite(compared, {
          dir,
          path: row.form.path,
          // The metadata zarrkit wrote for the same form, so both write the same array.
          metadata: JSON.parse(readFileSync(join(ctx.dataRoot, key), "utf8")),
          load: loadValues,
          readBack: () => readBack("tensorstore", false),
        }),
      );
    }
    const title = row.title ?? `write whole array, ${formTitle(row.form, profile)}`;
    const forTensorstore = !profile.writeForms.includes(row.form.name);
    const spec = { id: row.id, group: 6, title, source: "local", form: row.form.name, forTensorstore } as const;
    results.push(await contest(spec, contenders, comparedRounds(profile, compared !== undefined), ctx.log));
  }
  rmSync(dir, { recursive: true, force: true });
  return results;
}
