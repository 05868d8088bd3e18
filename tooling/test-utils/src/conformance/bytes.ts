import { expect } from "vitest";

export function bytes(...values: number[]): Uint8Array {
  return Uint8Array.from(values);
}

export function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

/** `length` bytes counting up from `start` (mod 256), so any window is recognisable. */
export function sequence(length: number, start = 0): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (start + i) & 0xff;
  return out;
}

export { noise } from "../noise.js";

/** Compare bytes fast (values can be large) with a failure message that points at the first difference. */
export function expectBytes(actual: Uint8Array | undefined, expected: Uint8Array, what = "value"): void {
  expect(actual, `${what} should be a Uint8Array`).toBeInstanceOf(Uint8Array);
  const value = actual as Uint8Array;
  let firstDifference = -1;
  const common = Math.min(value.byteLength, expected.byteLength);
  for (let i = 0; i < common && firstDifference < 0; i++) if (value[i] !== expected[i]) firstDifference = i;
  expect({ length: value.byteLength, firstDifference }, what).toEqual({
    length: expected.byteLength,
    firstDifference: -1,
  });
}
