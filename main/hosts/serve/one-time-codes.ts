import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * One-time codes for `strata serve --open` and the link `strata serve` prints at a terminal: the browser is handed a code, never the token, so
 * nothing on a command line (readable by other users in /proc) or in the browser's history can be
 * reused. The page trades the code for the token once; a second try, or one after `ttlMs`, is refused.
 */
export class OneTimeCodes {
  private readonly live = new Map<string, { expires: number; onRedeem: (() => void) | undefined }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  mint(onRedeem?: () => void, ttlMs: number = this.ttlMs): string {
    const code = randomBytes(24).toString('base64url');
    this.live.set(code, { expires: this.now() + ttlMs, onRedeem });
    return code;
  }

  /** True once per code (constant-time comparison against every live code), false otherwise. */
  redeem(candidate: unknown): boolean {
    if (typeof candidate !== 'string') return false;
    const given = Buffer.from(candidate);
    let hit: string | null = null;
    for (const [code, entry] of this.live) {
      if (entry.expires <= this.now()) {
        this.live.delete(code);
        continue;
      }
      const want = Buffer.from(code);
      if (want.length === given.length && timingSafeEqual(want, given)) hit = code;
    }
    if (hit === null) return false;
    const entry = this.live.get(hit);
    this.live.delete(hit);
    entry?.onRedeem?.();
    return true;
  }

  clear(): void {
    this.live.clear();
  }
}
