/**
 * Milliseconds on a monotonic clock, as performance.now() counts them (from another origin), without
 * the `performance` global: its first use loads perf_hooks and ten more of Node's modules, which
 * every discovery loaded for its time slices and every CLI startup snapshot held (issue #19).
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
