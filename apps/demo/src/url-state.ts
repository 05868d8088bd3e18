// The page's state in its URL, so every view is a link. `source`, `at`,
// `contrast`, `colormap` and `zoom` are a stable contract for automated checks;
// `axes` and `pan` are the app's own.

export type Colormap = "gray" | "viridis" | "labels";
export const COLORMAPS: readonly Colormap[] = ["gray", "viridis", "labels"];

export interface UrlState {
  source?: string;
  /** Indices of the non-displayed dimensions, in dimension order. */
  at?: number[];
  contrast?: [number, number];
  colormap?: Colormap;
  zoom?: number;
  /** The displayed dimensions: [down, across]. */
  axes?: [number, number];
  /** The data coordinates (level 0) at the view's top-left corner: [row, column]. */
  pan?: [number, number];
}

function numbers(text: string | null, integers: boolean): number[] | undefined {
  if (text === null || text.trim() === "") return undefined;
  const values = text.split(",").map((part) => Number(part.trim()));
  if (values.some((v) => !Number.isFinite(v) || (integers && !Number.isInteger(v)))) return undefined;
  return values;
}

function pair(text: string | null, integers: boolean): [number, number] | undefined {
  const values = numbers(text, integers);
  return values?.length === 2 ? [values[0]!, values[1]!] : undefined;
}

/** The state a query string describes; malformed parameters are left out (the app then picks its defaults). */
export function parseUrlState(search: string): UrlState {
  const params = new URLSearchParams(search);
  const state: UrlState = {};
  const source = params.get("source");
  if (source) state.source = source;
  const at = numbers(params.get("at"), true);
  if (at?.every((i) => i >= 0)) state.at = at;
  const contrast = pair(params.get("contrast"), false);
  if (contrast && contrast[0] < contrast[1]) state.contrast = contrast;
  const colormap = params.get("colormap");
  if (colormap && (COLORMAPS as readonly string[]).includes(colormap)) state.colormap = colormap as Colormap;
  const zoom = Number(params.get("zoom") ?? Number.NaN);
  if (zoom > 0 && Number.isFinite(zoom)) state.zoom = zoom;
  const axes = pair(params.get("axes"), true);
  if (axes && axes[0] !== axes[1] && axes.every((a) => a >= 0)) state.axes = axes;
  const pan = pair(params.get("pan"), false);
  if (pan) state.pan = pan;
  return state;
}

const round = (v: number) => String(Math.round(v * 1000) / 1000);

/** The query string (with "?", or "" when empty) for a state; parseUrlState reads it back. */
export function formatUrlState(state: UrlState): string {
  const params = new URLSearchParams();
  if (state.source) params.set("source", state.source);
  if (state.at?.length) params.set("at", state.at.join(","));
  if (state.contrast) params.set("contrast", state.contrast.map(round).join(","));
  if (state.colormap) params.set("colormap", state.colormap);
  if (state.zoom !== undefined) params.set("zoom", round(state.zoom));
  if (state.axes) params.set("axes", state.axes.join(","));
  if (state.pan) params.set("pan", state.pan.map(round).join(","));
  const text = params.toString();
  return text ? `?${text}` : "";
}
