// Times bootstrapMacroF1Values (B = 1000) in process on GRPO-shaped and many-run synthetic outcomes,
// for a build at DIR (default: this tree): node bench/lib/bootstrap-time.mjs [DIR]
const which = process.argv[2] ?? new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const { bootstrapMacroF1Values } = await import(`${which}/dist/core/metrics/bootstrap.js`);
let st = 99;
const rand = (n) => {
  st = (Math.imul(st, 1103515245) + 12345) >>> 0;
  return (st >>> 8) % n;
};
for (const [n, R] of [
  [37500, 8],
  [891, 1123],
]) {
  const labels = Uint8Array.from({ length: n }, () => rand(2));
  const codes = new Uint8Array(n * R);
  for (let r = 0; r < R; r++) for (let i = 0; i < n; i++) codes[r * n + i] = labels[i] * 2 + (rand(10) < 7 ? labels[i] : 1 - labels[i]);
  const times = [];
  for (let k = 0; k < 3; k++) {
    const t = performance.now();
    bootstrapMacroF1Values(labels, codes, R, 0, 0, 1000);
    times.push(performance.now() - t);
  }
  console.log(which, n, R, times.map((t) => t.toFixed(0)).join(" "), "ms");
}
