import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export function contentType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Resolves a URL path inside `root`, or null when it would escape it (`..`, encoded slashes, NUL). */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = normalize(join(root, decoded));
  const base = normalize(root.endsWith(sep) ? root : root + sep);
  return full.startsWith(base) ? full : null;
}

export async function readStatic(root: string, urlPath: string): Promise<{ body: Buffer; type: string } | null> {
  const file = resolveInside(root, urlPath);
  if (!file) return null;
  try {
    return { body: await readFile(file), type: contentType(file) };
  } catch {
    return null;
  }
}

/**
 * The renderer's chunks are named by their content (Vite's `[name]-[hash]` under assets/): the same
 * name is always the same bytes, so the browser may keep them for good and the host may keep them
 * in memory. Nothing else is (the page names the chunks of the build it belongs to).
 */
export function isHashedAsset(urlPath: string): boolean {
  return /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.(?:js|css)$/.test(urlPath);
}

/** Files over this are read each time, not kept (the renderer's largest chunk is ~0.4 MB). */
const MAX_KEPT_FILE_BYTES = 4 << 20;
/** What the cache holds at most, together (the renderer's chunks are ~1.5 MB). */
const MAX_KEPT_BYTES = 32 << 20;

/**
 * The renderer's files for the browser host, read at once (issue #19: first render). While a
 * discovery holds `strata serve`'s event loop in 8 ms slices, a file read with fs/promises waited
 * a slice at each of its steps (open, stat, read, close): the page's ~15 scripts arrived 0.3–0.9 s
 * after it asked. Here a request is answered in the turn it is read in: a chunk named by its content
 * (isHashedAsset) is read once and kept; anything else (the page, the preload) is read each time, so
 * a rebuild under a running server is served as built. Same guard as readStatic: a path outside
 * `root`, missing or not a file is null (a kept chunk that a rebuild removed is gone too).
 */
export class StaticFileCache {
  private readonly kept = new Map<string, Buffer>();
  private keptBytes = 0;

  constructor(private readonly root: string) {}

  /** The file at `urlPath` inside the root. */
  read(urlPath: string): { body: Buffer; type: string } | null {
    const file = resolveInside(this.root, urlPath);
    return file ? this.readFile(file, isHashedAsset(urlPath)) : null;
  }

  /** A file by its path: one the host names itself (the browser preload, the first-request script), or `read`'s. */
  readFile(file: string, keep = false): { body: Buffer; type: string } | null {
    let body: Buffer;
    try {
      if (!statSync(file).isFile()) return null;
      const hit = this.kept.get(file);
      if (hit) return { body: hit, type: contentType(file) };
      body = readFileSync(file);
    } catch {
      return null;
    }
    if (keep && body.length <= MAX_KEPT_FILE_BYTES && this.keptBytes + body.length <= MAX_KEPT_BYTES) {
      this.kept.set(file, body);
      this.keptBytes += body.length;
    }
    return { body, type: contentType(file) };
  }
}
