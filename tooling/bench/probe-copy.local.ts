import { copyStrided, blockSlices, dataType } from "@zarrkit/core";
const n = 256, b = 128;
const src = new Uint16Array(n ** 3).map((_, i) => i);
const type = dataType("uint16");
function viaCopyStrided() {
  const box = new Uint16Array(new SharedArrayBuffer(b ** 3 * 2));
  copyStrided({ data: src, shape: [n, n, n] }, blockSlices([128, 0, 128], [b, b, b]), { data: box, shape: [b, b, b] }, blockSlices([0, 0, 0], [b, b, b]), type);
  return box;
}
function viaLoop() {
  const box = new Uint16Array(new SharedArrayBuffer(b ** 3 * 2));
  const f = new Float64Array(src.buffer), t = new Float64Array(box.buffer);
  const rowWords = b * 2 / 8, srcRow = n * 2 / 8;
  let d = 0;
  for (let z = 0; z < b; z++) for (let y = 0; y < b; y++) {
    let s = (((128 + z) * n + y) * n + 128) * 2 / 8;
    for (let i = 0; i < rowWords; i++) t[d++] = f[s + i]!;
  }
  return box;
}
function viaWhole() {
  const all = new Uint16Array(new SharedArrayBuffer(src.byteLength)); all.set(src); return all;
}
for (let round = 0; round < 3; round++) {
  for (const [name, fn] of [["copyStrided", viaCopyStrided], ["f64 loop", viaLoop], ["whole 32MiB set /8", viaWhole]] as const) {
    const t = performance.now(); const reps = name.startsWith("whole") ? 5 : 40;
    for (let r = 0; r < reps; r++) fn();
    const per = (performance.now() - t) / reps;
    console.log(name, (name.startsWith("whole") ? per / 8 : per).toFixed(2), "ms per 4 MiB box");
  }
}
