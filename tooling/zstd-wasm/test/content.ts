/** Test data of three kinds: a smooth volume of 16-bit samples, noise and text; the same for the same seed. */
export function content(kind: "volume" | "noise" | "text", length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state >>> 16;
  };
  const words = ["zarr", "shard", "chunk", "index", "codec", "array", " ", "\n", "{", "}", "0.5"];
  for (let i = 0, w = ""; i < length; i++) {
    if (kind === "volume")
      out[i] =
        i % 2
          ? 0x75 + ((Math.round(300 * Math.sin(i / 900)) >> 8) & 0xff)
          : (Math.round(300 * Math.sin(i / 900)) + (next() & 15)) & 0xff;
    else if (kind === "noise") out[i] = next() & 0xff;
    else {
      if (w.length === 0) w = words[next() % words.length]!;
      out[i] = w.charCodeAt(0);
      w = w.slice(1);
    }
  }
  return out;
}
