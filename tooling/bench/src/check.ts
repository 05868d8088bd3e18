import type { Content } from "./content.js";
import type { Box } from "./peers.js";

/** The whole array of edge `size` as a box. */
export function wholeBox(size: number): Box {
  return { start: [0, 0, 0], stop: [size, size, size] };
}

/** Throws unless `data` holds the content of `box` (plus `shift`): a benchmark of wrong answers is worthless. */
export function checkBox(content: Content, data: ArrayLike<number>, box: Box, what: string, shift = 0): void {
  const shape = box.stop.map((s, d) => s - box.start[d]!);
  const bad = content.firstMismatch(data, box.start, shape, shift);
  if (bad >= 0) {
    throw new Error(
      `${what}: wrong data in box [${box.start}]..[${box.stop}] at element ${bad} (got ${data[bad]}, ${data.length} ` +
        `elements)`,
    );
  }
}
