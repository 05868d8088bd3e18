import { copyStrided, blockSlices, dataType } from "@zarrkit/core";
const n = 256, b = 128;
const src = new Uint16Array(n ** 3).map((_, i) => i);
const type = dataType("uint16");
const reused = new Uint16Array(new SharedArrayBuffer(b ** 3 * 2));
const copy = (box: Uint16Array) => copyStrided({ data: src, shape: [n, n, n] }, blockSlices([128, 0, 128], [b, b, b]), { data: box, shape: [b, b, b] }, blockSlices([0, 0, 0], [b, b, b]), type);
for (let round = 0; round < 3; round++) {
  let t = performance.now();
  for (let r = 0; r < 40; r++) new Uint16Array(new SharedArrayBuffer(b ** 3 * 2));
  console.log("alloc SAB only", ((performance.now() - t) / 40).toFixed(2));
  t = performance.now();
  for (let r = 0; r < 40; r++) { const x = new Uint16Array(new SharedArrayBuffer(b ** 3 * 2)); x[0]=1; x.fill(0); }
  console.log("alloc SAB + touch", ((performance.now() - t) / 40).toFixed(2));
  t = performance.now();
  for (let r = 0; r < 40; r++) copy(reused);
  console.log("copy into reused", ((performance.now() - t) / 40).toFixed(2));
  t = performance.now();
  for (let r = 0; r < 40; r++) copy(new Uint16Array(new SharedArrayBuffer(b ** 3 * 2)));
  console.log("copy into fresh", ((performance.now() - t) / 40).toFixed(2));
  t = performance.now();
  for (let r = 0; r < 40; r++) copy(new Uint16Array(b ** 3));
  console.log("copy into fresh non-shared", ((performance.now() - t) / 40).toFixed(2));
}
