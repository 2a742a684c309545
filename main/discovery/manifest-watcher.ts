import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { DiscoveryChangeSet, type DiscoveryChanged } from '../../shared/discovery/discovery-changes';
import { MANIFEST_KINDS, type ManifestKind, type SearchPaths } from '../../shared/loader/search-paths';

/**
 * Watches every search location of shared/loader/search-paths.ts so the UI learns when the set of
 * manifests the loader would read changes on disk (`discovery.changed`).
 *
 * - A folder that exists is watched itself: any `*.json` name in it that is created, written,
 *   renamed or removed is a change (the loader reads every `*.json` of it, "Linux Layer Discovery").
 * - A single-file entry (`VK_LAYER_PATH=/x/a.json`) is watched through its folder, so an editor's
 *   write-to-temp-and-rename is seen as well as an in-place write.
 * - A location that does not exist is watched through its nearest existing ancestor, for the name
 *   of the next folder on the way; when that appears the watches are re-armed one level deeper, so
 *   `mkdir -p ~/.config/vulkan/explicit_layer.d` is noticed. A folder that appears or disappears is
 *   itself a change (`strata path list` shows whether each location exists).
 * - Events are debounced (default 150 ms after the last one, at most 1 s after the first) into one
 *   change set; every flush re-arms the watches, replacing those whose folder was removed or
 *   replaced (a deleted folder's watch stays open on the old inode and would never fire again).
 *
 * Registry keys (Windows) are not watched: reg.exe cannot wait for a change.
 * Nothing here throws: a folder that cannot be watched (EACCES, the inotify limit) is reported
 * once through `onProblem`, and the rest keeps working.
 */

export interface ManifestWatcherOptions {
  paths: SearchPaths;
  /** Relative entries of VK_LAYER_PATH etc. resolve against it, as in the scanner. */
  cwd?: string;
  debounceMs?: number;
  maxWaitMs?: number;
  onChange(change: DiscoveryChanged): void;
  /** The first change of a burst was seen: it is on its way (onChange follows after the debounce). */
  onPending?(): void;
  /** A folder could not be watched; called once per folder and reason. */
  onProblem?(message: string): void;
  /** For tests: Node's fs.watch by default. */
  watchFolder?: (path: string, listener: (event: string, name: string | null) => void) => FSWatcher;
}

/** One location to follow: a search folder or a single manifest, with the kinds that read it. */
interface Target {
  /** Spelled as discovery spells it (the key of the change's paths). */
  spelled: string;
  abs: string;
  entry: 'folder' | 'file';
  kinds: Set<ManifestKind>;
}

/** Why a folder is watched, for one target. */
type Interest =
  | { kind: 'contents'; target: Target }
  | { kind: 'file'; target: Target; name: string }
  /** An ancestor of a missing location: the next path component toward it. */
  | { kind: 'toward'; target: Target; name: string };

interface Watch {
  watcher: FSWatcher;
  /** dev:ino of the folder when armed, to notice a folder removed and made again. */
  identity: string;
  interests: Interest[];
}

export const DEFAULT_DEBOUNCE_MS = 150;
const DEFAULT_MAX_WAIT_MS = 1000;
/** A folder whose watch keeps failing is left alone after this many errors. */
const MAX_WATCH_ERRORS = 3;

function identityOf(path: string): string | null {
  try {
    const st = statSync(path);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

function existsAs(path: string, entry: Target['entry']): boolean {
  try {
    const st = statSync(path);
    return entry === 'folder' ? st.isDirectory() : true;
  } catch {
    // A dangling link or an unreadable parent reads as absent, as the scanner would find nothing there.
    return false;
  }
}

/** The folder to watch for `target` and why: itself, its parent, or the nearest existing ancestor. */
function placeFor(target: Target): { dir: string; interest: Interest } | null {
  if (target.entry === 'folder' && identityOf(target.abs) !== null) return { dir: target.abs, interest: { kind: 'contents', target } };
  const parent = dirname(target.abs);
  if (target.entry === 'file' && identityOf(parent) !== null) return { dir: parent, interest: { kind: 'file', target, name: basename(target.abs) } };
  // Walk up to the nearest existing folder; the interest is the next component toward the target.
  let child = target.entry === 'folder' ? target.abs : parent;
  for (;;) {
    const up = dirname(child);
    if (up === child) return null;
    if (identityOf(up) !== null) return { dir: up, interest: { kind: 'toward', target, name: basename(child) } };
    child = up;
  }
}

export class ManifestWatcher {
  private readonly targets: Target[];
  private readonly watches = new Map<string, Watch>();
  private readonly exists = new Map<Target, boolean>();
  private readonly pending = new DiscoveryChangeSet();
  private readonly reported = new Set<string>();
  private readonly errorCounts = new Map<string, number>();
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private timer: NodeJS.Timeout | null = null;
  private firstPendingAt: number | null = null;
  /** onPending was called for the changes now pending. */
  private pendingAnnounced = false;
  private closed = false;

  constructor(private readonly options: ManifestWatcherOptions) {
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    const cwd = options.cwd ?? process.cwd();
    const byKey = new Map<string, Target>();
    for (const kind of MANIFEST_KINDS)
      for (const loc of options.paths[kind]) {
        if (loc.entry === 'registry-key') continue;
        const abs = resolve(cwd, loc.path);
        const key = `${loc.entry}\0${abs}`;
        const known = byKey.get(key);
        if (known) known.kinds.add(kind);
        else byKey.set(key, { spelled: loc.path, abs, entry: loc.entry, kinds: new Set([kind]) });
      }
    this.targets = [...byKey.values()];
  }

  /** Arms every watch, synchronously: a change made after start() returns is seen. */
  start(): void {
    if (this.closed) return;
    for (const t of this.targets) this.exists.set(t, existsAs(t.abs, t.entry));
    this.rearm();
    // Something appeared or went while the watches were being armed: send it like any change.
    if (!this.pending.empty) this.schedule();
  }

  /** The folders watched now. */
  get watchedFolders(): string[] {
    return [...this.watches.keys()];
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.watches.values()) this.closeWatch(w);
    this.watches.clear();
  }

  private closeWatch(w: Watch): void {
    try {
      w.watcher.close();
    } catch {
      // Already closed by an error; nothing to release.
    }
  }

  private problem(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    try {
      this.options.onProblem?.(message);
    } catch {
      // A failing reporter must not stop the watching.
    }
  }

  /** Opens, keeps or replaces the watch of each folder the targets need now; closes the others. */
  private rearm(): void {
    // A folder may appear between placing a watch and arming it: place again until nothing moves.
    for (let round = 0; round < 3; round++) {
      const wanted = new Map<string, Interest[]>();
      for (const t of this.targets) {
        const place = placeFor(t);
        if (!place) continue;
        const list = wanted.get(place.dir);
        if (list) list.push(place.interest);
        else wanted.set(place.dir, [place.interest]);
      }
      for (const [dir, w] of this.watches) {
        if (!wanted.has(dir) || identityOf(dir) !== w.identity) {
          this.closeWatch(w);
          this.watches.delete(dir);
        }
      }
      for (const [dir, interests] of wanted) {
        const existing = this.watches.get(dir);
        if (existing) existing.interests = interests;
        else this.open(dir, interests);
      }
      let moved = false;
      for (const t of this.targets) {
        const now = existsAs(t.abs, t.entry);
        if (now !== this.exists.get(t)) {
          this.exists.set(t, now);
          // Appeared or disappeared: the loader's view of this location changed.
          this.pending.add(t.kinds, t.spelled);
          moved = true;
        }
      }
      if (!moved) return;
    }
  }

  private open(dir: string, interests: Interest[]): void {
    if ((this.errorCounts.get(dir) ?? 0) >= MAX_WATCH_ERRORS) return;
    const identity = identityOf(dir);
    if (identity === null) return;
    let watcher: FSWatcher;
    try {
      const listener = (event: string, name: string | Buffer | null) => this.onEvent(dir, event, name === null ? null : String(name));
      watcher = this.options.watchFolder ? this.options.watchFolder(dir, listener) : watch(dir, { persistent: false }, listener);
    } catch (e) {
      this.watchFailed(dir, e);
      return;
    }
    watcher.on('error', (e) => {
      this.errorCounts.set(dir, (this.errorCounts.get(dir) ?? 0) + 1);
      const w = this.watches.get(dir);
      if (w?.watcher === watcher) {
        this.closeWatch(w);
        this.watches.delete(dir);
        // Changes may have been missed until the re-arm: count what this folder held as changed.
        for (const i of w.interests) if (i.kind !== 'toward') this.pending.add(i.target.kinds, i.target.spelled);
      }
      this.watchFailed(dir, e);
      this.schedule();
    });
    this.watches.set(dir, { watcher, identity, interests });
  }

  private watchFailed(dir: string, e: unknown): void {
    const code = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
    // ENOENT: removed between the check and the watch; the next re-arm places it again.
    if (code === 'ENOENT') return;
    const why =
      code === 'ENOSPC'
        ? 'the limit of inotify watches is reached (fs.inotify.max_user_watches)'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code;
    this.problem(`${dir}\0${code}`, `Strata cannot watch ${dir} for manifest changes (${why}); changes there show after a manual refresh.`);
  }

  private onEvent(dir: string, event: string, name: string | null): void {
    if (this.closed) return;
    const w = this.watches.get(dir);
    if (!w) return;
    let relevant = false;
    for (const interest of w.interests) {
      if (interest.kind === 'contents') {
        // Without a name (some platforms) the whole folder counts as changed.
        if (name === null) this.pending.add(interest.target.kinds, interest.target.spelled);
        else if (name.endsWith('.json')) this.pending.add(interest.target.kinds, `${interest.target.spelled}/${name}`);
        else if (event !== 'rename') continue;
        relevant = true;
      } else if (name === null || name === interest.name) {
        if (interest.kind === 'file') this.pending.add(interest.target.kinds, interest.target.spelled);
        relevant = true;
      }
    }
    // A rename may be the watched folder itself going away; re-arming finds out.
    if (relevant || event === 'rename' || name === basename(dir)) this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    const now = Date.now();
    this.firstPendingAt ??= now;
    // Only for a change that will be reported: a rename of something else in a watched folder re-arms, and reports nothing.
    if (!this.pendingAnnounced && !this.pending.empty) {
      this.pendingAnnounced = true;
      try {
        this.options.onPending?.();
      } catch {
        // The listener's failure is its own, as onChange's.
      }
    }
    const wait = Math.max(0, Math.min(this.debounceMs, this.firstPendingAt + this.maxWaitMs - now));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref?.();
  }

  private flush(): void {
    this.timer = null;
    this.firstPendingAt = null;
    this.pendingAnnounced = false;
    if (this.closed) return;
    try {
      this.rearm();
    } catch (e) {
      this.problem(`rearm\0${String(e)}`, `Strata stopped re-arming its manifest watches: ${e instanceof Error ? e.message : String(e)}`);
    }
    const change = this.pending.take();
    if (!change) return;
    try {
      this.options.onChange(change);
    } catch {
      // The listener's failure is its own; the watcher goes on.
    }
  }
}
