import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, readSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GuardedReadError,
  isRegularFile,
  openRegularFile,
  openRegularFileSync,
  parseJsonGuarded,
  READ_LIMITS,
  readGuarded,
  readGuardedSync,
  type ReadKind,
} from '../../main/platform/guarded-read';
import { excessiveNesting, JSON_NESTING_LIMIT } from '../../shared/json/json-nesting';

let dir: string;
let socketServer: Server;
const p = (name: string) => join(dir, name);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strata-guarded-'));
  execFileSync('mkfifo', [p('fifo.json')]);
  symlinkSync('/dev/zero', p('zero.json'));
  writeFileSync(p('sparse.spv'), '');
  truncateSync(p('sparse.spv'), 1 << 30); // 1 GiB, no blocks on disk
  writeFileSync(p('ok.json'), '{"a":[1,2]}');
  writeFileSync(p('at-limit.json'), Buffer.alloc(READ_LIMITS.config, 0x20));
  writeFileSync(p('over-limit.json'), Buffer.alloc(READ_LIMITS.config + 1, 0x20));
  socketServer = createServer();
  await new Promise<void>((r) => socketServer.listen(p('socket.json'), () => r()));
});

after(() => {
  socketServer.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The streaming readers' open (session files): the same refusals, no size cap; the whole file read back through the descriptor. */
async function readThroughOpen(path: string): Promise<Buffer> {
  const { handle, size } = await openRegularFile(path);
  try {
    const { buffer } = await handle.read(Buffer.alloc(size), 0, size, 0);
    return buffer;
  } finally {
    await handle.close();
  }
}
function readThroughOpenSync(path: string): Buffer {
  const { fd, size } = openRegularFileSync(path);
  try {
    const buffer = Buffer.alloc(size);
    readSync(fd, buffer, 0, size, 0);
    return buffer;
  } finally {
    closeSync(fd);
  }
}

const readers: [string, (path: string, kind: ReadKind) => Buffer | Promise<Buffer>][] = [
  ['sync', readGuardedSync],
  ['async', readGuarded],
];

for (const [label, read] of readers) {
  test(`${label}: a regular file within the cap is read whole, up to the cap exactly`, async () => {
    assert.equal((await read(p('ok.json'), 'config')).toString(), '{"a":[1,2]}');
    assert.equal((await read(p('at-limit.json'), 'config')).length, READ_LIMITS.config);
  });

  test(`${label}: a device, a FIFO with no writer, a socket and a folder are refused at once, naming the path and what it is`, async () => {
    const cases: [string, RegExp][] = [
      ['/dev/zero', /\/dev\/zero is a character device, not a regular file/],
      [p('zero.json'), /zero\.json is a character device/],
      [p('fifo.json'), /fifo\.json is a FIFO \(named pipe\), not a regular file/],
      [p('socket.json'), /socket\.json is a socket/],
      [dir, /is a folder, not a regular file/],
    ];
    for (const [path, message] of cases) {
      const started = performance.now();
      await assert.rejects(
        async () => read(path, 'manifest'),
        (e: unknown) => e instanceof GuardedReadError && e.reason === 'not-a-file' && message.test(e.message),
        path,
      );
      assert.ok(performance.now() - started < 5_000, `${path} answered in bounded time`);
    }
  });

  test(`${label}: a 1 GiB sparse file and a file one byte over the cap are refused with sizes in bytes`, async () => {
    await assert.rejects(
      async () => read(p('sparse.spv'), 'shader'),
      (e: unknown) =>
        e instanceof GuardedReadError &&
        e.reason === 'too-large' &&
        e.message.includes(`is 1073741824 bytes; Strata reads shaders up to ${READ_LIMITS.shader} bytes (64 MiB)`),
    );
    await assert.rejects(
      async () => read(p('over-limit.json'), 'config'),
      (e: unknown) => e instanceof GuardedReadError && e.message.includes(`is ${READ_LIMITS.config + 1} bytes`),
    );
  });

  test(`${label}: a missing file is the open's own error`, async () => {
    await assert.rejects(async () => read(p('missing.json'), 'profile'), { code: 'ENOENT' });
  });
}

for (const [label, read] of [
  ['open, sync', readThroughOpenSync],
  ['open, async', readThroughOpen],
] as const) {
  test(`${label}: a regular file opens (any size, with its size); a device, a FIFO, a socket and a folder are refused at once; a missing file is the open's own error`, async () => {
    assert.equal((await read(p('ok.json'))).toString(), '{"a":[1,2]}');
    assert.equal(await openRegularFile(p('sparse.spv')).then(async ({ handle, size }) => (await handle.close(), size)), 1 << 30);
    for (const [path, message] of [
      ['/dev/zero', /\/dev\/zero is a character device, not a regular file/],
      [p('zero.json'), /zero\.json is a character device/],
      [p('fifo.json'), /fifo\.json is a FIFO \(named pipe\), not a regular file/],
      [p('socket.json'), /socket\.json is a socket/],
      [dir, /is a folder, not a regular file/],
    ] as const) {
      await assert.rejects(
        async () => read(path),
        (e: unknown) => e instanceof GuardedReadError && e.reason === 'not-a-file' && message.test(e.message),
        path,
      );
    }
    await assert.rejects(
      async () => read(p('missing.json')),
      (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT',
    );
  });
}

test('a file that reports size 0 but has content (procfs) is read to its end, not to its reported size', () => {
  assert.match(readGuardedSync('/proc/self/status', 'settings').toString(), /^Name:/);
});

test('JSON nesting: the loader cJSON limit, 1000 open containers, is accepted; one more is refused, at depth 100,000 too', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  assert.equal(JSON_NESTING_LIMIT, 1000);
  assert.equal(excessiveNesting(nested(1000)), null);
  assert.equal(excessiveNesting(nested(1001)), 1000);
  assert.equal(excessiveNesting(`{"s":"${'['.repeat(5000)}\\"${'{'.repeat(5000)}"}`), null, 'brackets inside strings (escaped quotes too) do not count');
  assert.deepEqual(parseJsonGuarded(nested(3), 'x.json'), [[[]]]);
  const started = performance.now();
  assert.throws(
    () => parseJsonGuarded(nested(100_000), '/tmp/deep.json'),
    (e: unknown) =>
      e instanceof GuardedReadError &&
      e.reason === 'too-deep' &&
      /\/tmp\/deep\.json nests JSON arrays\/objects deeper than 1000 levels \(at offset 1000\)/.test(e.message),
  );
  assert.ok(performance.now() - started < 2_000);
});

test('the profile cap is the profile schema own limit, and profile sizes count UTF-8 bytes, not characters', async () => {
  const { PROFILE_FILE_MAX_BYTES } = await import('../../shared/profiles/profile-schema');
  const { utf8ByteLength } = await import('../../shared/text/utf8-length');
  const { parseProfileJson } = await import('../../shared/profiles/profile-document');
  assert.equal(READ_LIMITS.profile, PROFILE_FILE_MAX_BYTES);
  for (const s of ['', 'abc', 'é', '€', '😀', 'a\ud800b', `x${'é'.repeat(10)}`])
    assert.equal(utf8ByteLength(s), Buffer.byteLength(s, 'utf8'), JSON.stringify(s));
  // 600,000 "é" are 600,000 characters (under the cap) but 1,200,000 bytes (over it).
  const text = `{"name":"${'é'.repeat(600_000)}"}`;
  assert.ok(text.length < PROFILE_FILE_MAX_BYTES);
  const r = parseProfileJson(text, 'p.json');
  assert.equal(r.ok === false && r.error.code, 'profile/too-large');
  assert.match(r.ok === false ? r.error.message : '', /is 1200011 bytes \(UTF-8\)/);
});

test('isRegularFile: a file (through a link) yes; a folder, a FIFO, a dangling link or nothing no', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-regular-'));
  try {
    writeFileSync(join(dir, 'f'), 'x');
    symlinkSync(join(dir, 'f'), join(dir, 'link'));
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    assert.deepEqual(
      ['f', 'link', '.', 'fifo', 'dangling', 'missing'].map((n) => isRegularFile(join(dir, n))),
      [true, true, false, false, false, false],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a regular file is read whole at every size around the chunk edges, synchronously and not', async () => {
  // The readers stop at a short read of a file with a size (guarded-read.ts shortReadIsEnd): these
  // sizes put the end just inside, at and just past the first chunk (size + 1) and the 1 MiB chunks.
  for (const size of [0, 1, 4095, 4096, 4097, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 7]) {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
    writeFileSync(p(`sized-${size}.json`), bytes);
    assert.ok(readGuardedSync(p(`sized-${size}.json`), 'manifest').equals(bytes), `sync, ${size} bytes`);
    assert.ok((await readGuarded(p(`sized-${size}.json`), 'manifest')).equals(bytes), `async, ${size} bytes`);
  }
});
