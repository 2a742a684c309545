import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bench } from './harness';
import { findAppRoot } from '../main/platform/app-paths';
import { SessionService } from '../main/sessions/session-service';
import { AS_USERS_RUN, makeTempHome } from '../tests/helpers/temp-home';

/**
 * A gigabyte of mixed stdout/stderr (tests/fixtures/apps/volume-writer.c: lines of 0–200 bytes,
 * 2–4-byte UTF-8, CRLF, some lines of 100–300 KB) through the launcher into a session file:
 * splitting, classifying, numbering, escaping and writing every line. The reference is the same
 * writer with both streams read and thrown away through a plain child_process pipe (what `cat >
 * /dev/null` costs), so the ratio is what capturing costs over merely draining the pipes.
 *
 * Each side runs in a process of its own and times itself (start-up excluded); the capture side
 * also reports its peak RSS (getrusage), at 100 MB and at the full size, to show memory does not
 * grow with the output. STRATA_BENCH_SESSION_BYTES sets the full size (default 1e9).
 */
const CHILD_FLAG = '--session-capture-child';

interface ChildResult {
  ms: number;
  maxRssKiB: number;
  sessionBytes: number;
}

/** The capture side, in its own process: one launch, the session written to a temporary XDG_STATE_HOME. */
async function captureChild(writer: string, bytes: number): Promise<ChildResult> {
  const home = makeTempHome(AS_USERS_RUN);
  try {
    const sessions = new SessionService({ env: home.env, version: 'bench', predictChain: false });
    const t0 = performance.now();
    const s = await sessions.start({ command: writer, args: [String(bytes), '7'] });
    const footer = await s.ended;
    const ms = performance.now() - t0;
    if (footer.exit.code !== 0) throw new Error(`volume-writer exited with ${JSON.stringify(footer.exit)}`);
    return { ms, maxRssKiB: process.resourceUsage().maxRSS, sessionBytes: statSync(s.file).size };
  } finally {
    home.cleanup();
  }
}

/** The reference: both pipes read and dropped, nothing else. */
function drainChild(writer: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(writer, [String(bytes), '7'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let open = 2;
    const done = () => {
      if (--open === 0) resolve(performance.now() - t0);
    };
    child.stdout.on('data', () => undefined).on('end', done);
    child.stderr.on('data', () => undefined).on('end', done);
    child.on('error', reject);
  });
}

function runChild(writer: string, bytes: number): ChildResult {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, CHILD_FLAG, writer, String(bytes)], {
    cwd: findAppRoot(),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`capture child failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ChildResult;
}

export const sessionCaptureBench: Bench = {
  name: 'session-capture',
  async run() {
    const total = Number(process.env['STRATA_BENCH_SESSION_BYTES'] ?? 1e9);
    const dir = mkdtempSync(join(tmpdir(), 'strata-bench-session-'));
    try {
      const writer = join(dir, 'volume-writer');
      execFileSync('gcc', ['-O2', '-Wall', '-o', writer, join(findAppRoot(), 'tests', 'fixtures', 'apps', 'volume-writer.c')], { stdio: 'pipe' });
      const reference = await drainChild(writer, total);
      const small = runChild(writer, Math.min(total, 1e8));
      const full = runChild(writer, total);
      return {
        ratio: full.ms / reference,
        bytes: total,
        strataMs: Math.round(full.ms),
        referenceMs: Math.round(reference),
        reference: 'the same writer, both pipes drained and dropped by a plain child_process',
        strataMBps: Number((total / 1e6 / (full.ms / 1000)).toFixed(1)),
        referenceMBps: Number((total / 1e6 / (reference / 1000)).toFixed(1)),
        targetMBps: 100,
        sessionFileMB: Number((full.sessionBytes / 1e6).toFixed(1)),
        peakRssMiB: Number((full.maxRssKiB / 1024).toFixed(1)),
        peakRssMiBAt100MB: Number((small.maxRssKiB / 1024).toFixed(1)),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (process.argv[2] === CHILD_FLAG) {
  const result = await captureChild(process.argv[3]!, Number(process.argv[4]));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
