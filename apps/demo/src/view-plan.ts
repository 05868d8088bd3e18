// Which part of a 2D slice a view shows, and which tiles (shards, or chunks when
// unsharded) it needs. Coordinates: rows down, columns across, in elements of
// the level read; the view's pan and size are in elements of level 0.

export interface Rect {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}

export interface ViewGeometry {
  /** Level-0 data coordinates at the view's top-left corner. */
  panRow: number;
  panCol: number;
  /** CSS pixels per level-0 element. */
  zoom: number;
  /** The view's size in CSS pixels. */
  width: number;
  height: number;
}

export interface Tile {
  /** Tile grid coordinates along rows and columns. */
  row: number;
  col: number;
  /** The tile's elements in the level, clipped to the array. */
  rect: Rect;
}

/**
 * The elements of a level (of `rows` x `cols`, `factor` level-0 elements per element along each axis) the view shows,
 * clipped.
 */
export function visibleRect(
  view: ViewGeometry,
  rows: number,
  cols: number,
  factor: readonly [number, number] = [1, 1],
): Rect | undefined {
  const r0 = Math.max(0, Math.floor(view.panRow / factor[0]));
  const c0 = Math.max(0, Math.floor(view.panCol / factor[1]));
  const r1 = Math.min(rows, Math.ceil((view.panRow + view.height / view.zoom) / factor[0]));
  const c1 = Math.min(cols, Math.ceil((view.panCol + view.width / view.zoom) / factor[1]));
  return r1 > r0 && c1 > c0 ? { r0, c0, r1, c1 } : undefined;
}

/** The tiles of shape `tile` (rows, cols) covering `rect` in an array of `rows` x `cols`, row by row. */
export function tilesCovering(rect: Rect, tile: readonly [number, number], rows: number, cols: number): Tile[] {
  const tiles: Tile[] = [];
  for (let row = Math.floor(rect.r0 / tile[0]); row * tile[0] < rect.r1; row++) {
    for (let col = Math.floor(rect.c0 / tile[1]); col * tile[1] < rect.c1; col++) {
      const r0 = row * tile[0];
      const c0 = col * tile[1];
      tiles.push({ row, col, rect: { r0, c0, r1: Math.min(r0 + tile[0], rows), c1: Math.min(c0 + tile[1], cols) } });
    }
  }
  return tiles;
}

/**
 * The pyramid level to read at a zoom: the coarsest whose elements are no larger than a CSS pixel (0 when zoomed in).
 */
export function levelForZoom(factors: readonly number[], zoom: number): number {
  let best = 0;
  factors.forEach((f, i) => {
    if (f <= 1 / zoom + 1e-9 && f > factors[best]!) best = i;
  });
  return best;
}

/** A new pan so that the level-0 point under (x, y) CSS pixels stays there when zoom changes to `zoom`. */
export function zoomAround(view: ViewGeometry, x: number, y: number, zoom: number): { panRow: number; panCol: number } {
  const row = view.panRow + y / view.zoom;
  const col = view.panCol + x / view.zoom;
  return { panRow: row - y / zoom, panCol: col - x / zoom };
}

export interface TileGroup {
  /** Group grid coordinates along rows and columns (the shard, for a sharded array). */
  row: number;
  col: number;
  tiles: Tile[];
  /** The bounding rectangle of its tiles: read with one request per group. */
  rect: Rect;
}

/** Tiles grouped by the larger cell (`group`, a multiple of the tile shape) that holds them. */
export function groupTiles(tiles: readonly Tile[], group: readonly [number, number]): TileGroup[] {
  const groups = new Map<string, TileGroup>();
  for (const tile of tiles) {
    const row = Math.floor(tile.rect.r0 / group[0]);
    const col = Math.floor(tile.rect.c0 / group[1]);
    const key = `${row},${col}`;
    const found = groups.get(key);
    if (!found) {
      groups.set(key, { row, col, tiles: [tile], rect: { ...tile.rect } });
      continue;
    }
    found.tiles.push(tile);
    found.rect = {
      r0: Math.min(found.rect.r0, tile.rect.r0),
      c0: Math.min(found.rect.c0, tile.rect.c0),
      r1: Math.max(found.rect.r1, tile.rect.r1),
      c1: Math.max(found.rect.c1, tile.rect.c1),
    };
  }
  return [...groups.values()];
}
