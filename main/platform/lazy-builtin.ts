import { createRequire } from 'node:module';

const requireBuiltin = createRequire(import.meta.url);

/**
 * A Node built-in module loaded on its first use instead of when the importing module loads
 * (issue #19: start-up). `node:child_process` costs ~5 ms of a command's start (it loads net, dgram
 * and the stream internals) and `node:readline` ~1 ms, and most commands never start a process:
 * `strata explain` loads the probe's client without starting the probe.
 */
export function lazyBuiltin<T>(name: `node:${string}`): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireBuiltin(name) as T);
}
