// A paint layer over the view: strokes are written into a sharded uint8 array
// in IndexedDB (each brush dab is a partial write of one or two shards, done in
// the browser by zarrkit's sharding codec) and drawn over the image.
import { createArray, IdbStore, NotFoundError, openArray, slice, type ZarrArray } from "zarrkit";
import { DATABASE } from "./offline.js";

export const BRUSH_RADIUS = 3;

/** Inner chunks and shards of the annotation array: small chunks, a few per shard, along every dimension. */
export function annotationLayout(shape: readonly number[]): { chunkShape: number[]; shardShape: number[] } {
  const chunkShape = shape.map((n) => Math.max(1, Math.min(n, 32)));
  const shardShape = chunkShape.map((c, d) => c * Math.min(4, Math.ceil(shape[d]! / c)));
  return { chunkShape, shardShape };
}

/** A stable name for a source's annotations (its URL, hashed: IndexedDB prefixes stay short). */
export function annotationPrefix(source: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < source.length; i++) h = Math.imul(h ^ source.charCodeAt(i), 0x01000193);
  return `annotations/${(h >>> 0).toString(16).padStart(8, "0")}`;
}

/** The elements of a disc of `radius` around (row, col), clipped to rows x cols, as a bounding box and mask. */
export function brushDab(row: number, col: number, rows: number, cols: number, radius = BRUSH_RADIUS) {
  const r0 = Math.max(0, row - radius);
  const c0 = Math.max(0, col - radius);
  const r1 = Math.min(rows, row + radius + 1);
  const c1 = Math.min(cols, col + radius + 1);
  const mask: boolean[] = [];
  for (let r = r0; r < r1; r++)
    for (let c = c0; c < c1; c++) mask.push((r - row) ** 2 + (c - col) ** 2 <= radius * radius);
  return { r0, c0, r1, c1, mask };
}

export type AnnotationState = "loading" | "loaded" | "saving" | "saved" | "error";

export class AnnotationLayer {
  private array: ZarrArray | undefined;
  private image: HTMLCanvasElement | undefined;
  private sliceKey = "";
  private writes: Promise<void> = Promise.resolve();
  private pendingWrites = 0;

  constructor(
    private readonly source: string,
    private readonly shape: readonly number[],
    private readonly onChange: (state: AnnotationState) => void,
    private readonly onError: (key: string, message: string) => void,
  ) {}

  /** The annotation array; created on the first stroke (`create`), so merely viewing writes nothing. */
  private async arrayFor(create: true): Promise<ZarrArray>;
  private async arrayFor(create: false): Promise<ZarrArray | undefined>;
  private async arrayFor(create: boolean): Promise<ZarrArray | undefined> {
    if (this.array) return this.array;
    const store = new IdbStore({ database: DATABASE, prefix: annotationPrefix(this.source) });
    try {
      this.array = await openArray(store, "");
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      if (!create) return undefined;
      this.array = await createArray(store, "", {
        shape: [...this.shape],
        dataType: "uint8",
        ...annotationLayout(this.shape),
        attributes: { source: this.source },
      });
    }
    return this.array;
  }

  /**
   * Load the slice's annotations when the slice changed (axes, or the index of another dimension); true when it did.
   */
  async show(axes: readonly [number, number], at: readonly number[]): Promise<boolean> {
    const key = `${axes}|${at.map((v, d) => (axes.includes(d) ? "" : v))}`;
    if (key === this.sliceKey) return false;
    this.sliceKey = key;
    this.image = undefined;
    this.onChange("loading");
    try {
      const array = await this.arrayFor(false);
      const selection = this.shape.map((_, d) => (axes.includes(d) ? null : at[d]!));
      const values = array ? ((await array.get(selection)).data as Uint8Array) : undefined;
      if (key !== this.sliceKey) return false;
      const [rows, cols] = [this.shape[axes[0]]!, this.shape[axes[1]]!];
      const rowFirst = axes[0] < axes[1];
      this.image = Object.assign(document.createElement("canvas"), { width: cols, height: rows });
      const pixels = new ImageData(cols, rows);
      for (let r = 0; values && r < rows; r++) {
        for (let c = 0; c < cols; c++)
          if (values[rowFirst ? r * cols + c : c * rows + r]) pixels.data.set([255, 0, 0, 128], (r * cols + c) * 4);
      }
      this.image.getContext("2d")!.putImageData(pixels, 0, 0);
      this.onChange("loaded");
      return true;
    } catch (error) {
      this.onChange("error");
      this.onError(
        annotationPrefix(this.source),
        `Annotations could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
  }

  /** Paint a dab at level-0 (row, col) of the shown slice: drawn at once, written in order. */
  paint(axes: readonly [number, number], at: readonly number[], row: number, col: number): void {
    if (!this.image) return;
    const dab = brushDab(Math.floor(row), Math.floor(col), this.shape[axes[0]]!, this.shape[axes[1]]!);
    if (dab.r1 <= dab.r0 || dab.c1 <= dab.c0) return;
    const ctx = this.image.getContext("2d")!;
    ctx.fillStyle = "rgba(255, 0, 0, 0.5)";
    let i = 0;
    for (let r = dab.r0; r < dab.r1; r++) {
      for (let c = dab.c0; c < dab.c1; c++, i++) {
        if (!dab.mask[i]) continue;
        ctx.clearRect(c, r, 1, 1);
        ctx.fillRect(c, r, 1, 1);
      }
    }
    this.pendingWrites++;
    this.onChange("saving");
    this.writes = this.writes
      .then(() => this.write(axes, at, dab))
      .catch((error: unknown) =>
        this.onError(
          annotationPrefix(this.source),
          `An annotation was not saved: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        if (--this.pendingWrites === 0) this.onChange("saved");
      });
  }

  /** Read the dab's box, set the disc, write it back: a partial write of the shards it touches. */
  private async write(
    axes: readonly [number, number],
    at: readonly number[],
    dab: ReturnType<typeof brushDab>,
  ): Promise<void> {
    const array = await this.arrayFor(true);
    const selection = this.shape.map((_, d) =>
      d === axes[0] ? slice(dab.r0, dab.r1) : d === axes[1] ? slice(dab.c0, dab.c1) : at[d]!,
    );
    const box = await array.get(selection);
    const values = box.data as Uint8Array;
    const rows = dab.r1 - dab.r0;
    const cols = dab.c1 - dab.c0;
    const rowFirst = axes[0] < axes[1];
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) if (dab.mask[r * cols + c]) values[rowFirst ? r * cols + c : c * rows + r] = 1;
    await array.set(selection, box);
  }

  draw(ctx: CanvasRenderingContext2D, panRow: number, panCol: number, zoom: number): void {
    if (!this.image) return;
    ctx.drawImage(this.image, -panCol * zoom, -panRow * zoom, this.image.width * zoom, this.image.height * zoom);
  }
}
