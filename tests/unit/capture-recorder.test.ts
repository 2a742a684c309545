import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CaptureRecorder } from '../../main/sessions/capture-recorder';
import { CaptureParser } from '../../shared/sessions/capture-parser';
import type { CaptureRecord, CaptureStream } from '../../shared/sessions/session-records';
import { seededRandom } from '../helpers/seeded-random';

const spec = (vuid: string) => ({ url: `https://example/#${vuid}`, text: null });

/** Runs chunks through a recorder; returns the JSON Lines it wrote, parsed, and the live records. */
function record(chunks: [CaptureStream, Buffer][], liveRoom = 0, max?: number) {
  const parser = new CaptureParser(spec);
  let text = '';
  const live: CaptureRecord[] = [];
  let dropped = 0;
  const recorder = new CaptureRecorder(
    parser,
    {
      write: (buf, n) => (text += buf.toString('utf8', 0, n)),
      liveRoom: () => liveRoom,
      live: (records, d) => {
        live.push(...records);
        dropped += d;
      },
    },
    max,
  );
  chunks.forEach(([stream, bytes], i) => recorder.chunk(stream, bytes, i + 0.5, 1000 + i));
  for (const s of ['stdout', 'stderr', 'validation'] as const) recorder.end(s, chunks.length, 2000);
  assert.ok(text.endsWith('\n'));
  // A record's seq is its position in the file.
  const records = text
    .trimEnd()
    .split('\n')
    .map((l, i) => ({ ...(JSON.parse(l) as CaptureRecord), seq: i + 1 }));
  return { records, live, dropped, counts: parser.counts };
}

const APP = 'plain "quoted" back\\slash\ttab \u0001ctl\u001f é✓😀 \u2028\r\nnext\n\n';
const LOADER = 'INFO:             Vulkan Loader Version 1.3.239\nWARNING:          something\nWhat the app says on stderr\n';
const MESSAGE =
  'VUID-VkBufferCreateInfo-size-00912(ERROR / SPEC): msgNum: 2085897310 - Validation Error: [ VUID-VkBufferCreateInfo-size-00912 ] Object 0: handle = 0x5, name = dev, type = VK_OBJECT_TYPE_DEVICE; | MessageID = 0x7c54445e | size must be greater than 0\n    Objects: 1\n        [0] 0x5, type: 3, name: dev\n';

test('bytes written straight from the chunk read back as the lines, escaped as JSON requires', () => {
  const { records, counts } = record([['stdout', Buffer.from(APP)]]);
  assert.deepEqual(
    records.map((r) => (r.kind === 'line' ? [r.seq, r.text, r.cr ?? false] : null)),
    [
      [1, 'plain "quoted" back\\slash\ttab \u0001ctl\u001f é✓😀 \u2028', true],
      [2, 'next', false],
      [3, '', false],
    ],
  );
  assert.equal(counts.lines.stdout, 3);
});

test('loader lines, validation messages and invalid UTF-8 take the parser path, in order with the rest', () => {
  const { records, counts } = record([
    ['stderr', Buffer.from(LOADER)],
    ['validation', Buffer.from(MESSAGE)],
    ['stdout', Buffer.concat([Buffer.from('ok\nbad '), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(MESSAGE), Buffer.from('tail without break')])],
  ]);
  const summary = records.map((r) =>
    r.kind === 'message'
      ? `${r.seq} message ${r.stream} ${r.lines.join('-')} ${r.objects[0]?.name}`
      : `${r.seq} ${r.stream} ${r.src ?? 'app'}${r.level ? `/${r.level}` : ''}${r.lossy ? ' lossy' : ''}${r.partial ? ' partial' : ''}`,
  );
  assert.deepEqual(summary, [
    '1 stderr loader/info',
    '2 stderr loader/warning',
    '3 stderr app',
    '4 validation validation/error',
    '5 validation validation/error',
    '6 validation validation/error',
    '7 message validation 4-6 dev',
    '8 stdout app',
    '9 stdout app lossy',
    '10 stdout validation/error',
    '11 stdout validation/error',
    '12 stdout validation/error',
    '13 message stdout 10-12 dev',
    '14 stdout app partial',
  ]);
  const lossy = records[8]!;
  assert.equal(lossy.kind === 'line' && lossy.text, 'bad \uFFFD\uFFFD');
  assert.equal(counts.messages.error, 2);
  assert.equal(counts.loader.info, 1);
});

test('any chunking of mixed output gives the same records (seeded), and the live view gets them in order', () => {
  const rand = seededRandom(21);
  const parts = [APP, LOADER, MESSAGE, 'x'.repeat(200) + '\n', 'é'.repeat(150) + '\n', 'no break '];
  let all = '';
  for (let i = 0; i < 300; i++) all += parts[Math.floor(rand() * parts.length)];
  const bytes = Buffer.from(all);
  const reference = record([['stderr', bytes]], 0, 128).records;
  for (let round = 0; round < 10; round++) {
    const chunks: [CaptureStream, Buffer][] = [];
    for (let i = 0; i < bytes.length;) {
      const n = 1 + Math.floor(rand() * 900);
      chunks.push(['stderr', bytes.subarray(i, i + n)]);
      i += n;
    }
    const { records, live, dropped } = record(chunks, 1e9, 128);
    const strip = (r: CaptureRecord) => ({ ...r, t: 0, wall: 0 });
    assert.deepEqual(records.map(strip), reference.map(strip));
    assert.deepEqual(
      live.map((r) => r.seq),
      records.map((r) => r.seq),
    );
    assert.equal(dropped, 0);
  }
});

test('whole chunks of plain lines in one pass give exactly the records of the line-by-line path (seeded)', () => {
  const rand = seededRandom(5);
  const plain = [APP, 'short line\n', '"quoted\\"\r\n', '\n', 'é✓ mixed 😀\n', 'ok\tgo\n'];
  for (const stream of ['stdout', 'stderr'] as const) {
    let all = '';
    // Mostly the application's own lines (whole chunks of them take the one-pass path), now and then the loader's or the layer's.
    for (let i = 0; i < 6000; i++) {
      const r = rand();
      all += r < 0.002 ? MESSAGE : r < 0.004 ? LOADER : plain[Math.floor(rand() * plain.length)];
    }
    const bytes = Buffer.from(all);
    const cut = (max: number) => {
      const chunks: [CaptureStream, Buffer][] = [];
      for (let i = 0; i < bytes.length;) {
        const n = 1 + Math.floor(rand() * max);
        chunks.push([stream, bytes.subarray(i, i + n)]);
        i += n;
      }
      return chunks;
    };
    // No line here is longer than 300 bytes: with chunks larger than that the one-pass path is never taken.
    const lineByLine = record(cut(30_000), 1e9, 300);
    const onePass = record(cut(65_536), 1e9);
    const strip = (r: CaptureRecord) => ({ ...r, t: 0, wall: 0 });
    assert.deepEqual(onePass.records.map(strip), lineByLine.records.map(strip));
    assert.deepEqual(onePass.live.map(strip), onePass.records.map(strip));
  }
});

test('the live view takes only what it has room for; messages always', () => {
  const { live, dropped, records } = record([['stdout', Buffer.from(`a\nb\nc\n${MESSAGE}`)]], 1);
  assert.equal(records.length, 7);
  assert.deepEqual(
    live.map((r) => r.kind),
    ['line', 'message'],
  );
  assert.equal(dropped, 5);
});
