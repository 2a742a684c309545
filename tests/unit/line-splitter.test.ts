import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, utf8Boundary } from '../../main/sessions/line-splitter';
import { seededRandom } from '../helpers/seeded-random';

interface Piece {
  text: string;
  cr?: true;
  partial?: true;
}

function collect(out: Piece[]) {
  return (buf: Buffer, s: number, e: number, cr: boolean, partial: boolean) => {
    const p: Piece = { text: buf.toString('utf8', s, e) };
    if (cr) p.cr = true;
    if (partial) p.partial = true;
    out.push(p);
  };
}

function split(chunks: (string | Buffer)[], max?: number): Piece[] {
  const s = new LineSplitter(max);
  const out: Piece[] = [];
  for (const c of chunks) s.push(typeof c === 'string' ? Buffer.from(c) : c, collect(out));
  s.end(collect(out));
  return out;
}

/** The bytes the lines stand for: what the application wrote. */
function join(lines: Piece[]): string {
  return lines.map((l) => l.text + (l.partial ? '' : l.cr ? '\r\n' : '\n')).join('');
}

test('lines across chunks, CRLF flagged, a last line without a break kept as partial', () => {
  assert.deepEqual(split(['one\ntw', 'o\r', '\nthr', 'ee']), [{ text: 'one' }, { text: 'two', cr: true }, { text: 'three', partial: true }]);
  assert.deepEqual(split(['\n\n']), [{ text: '' }, { text: '' }]);
  assert.deepEqual(split([]), []);
  // A lone CR in the middle is text, not a line break.
  assert.deepEqual(split(['a\rb\n']), [{ text: 'a\rb' }]);
});

test('a very long line is cut into partial pieces at character boundaries, with bounded memory', () => {
  const long = 'é'.repeat(100) + '✓'.repeat(100); // 200 + 300 bytes
  const s = new LineSplitter(64);
  const out: Piece[] = [];
  for (let i = 0; i < long.length; i += 7) {
    s.push(Buffer.from(long.slice(i, i + 7)), collect(out));
    assert.ok(s.pendingBytes <= 64);
  }
  s.push(Buffer.from('\n'), collect(out));
  s.end(collect(out));
  assert.ok(out.length > 5);
  assert.ok(out.slice(0, -1).every((l) => l.partial && Buffer.byteLength(l.text) <= 64 && !l.text.includes('\uFFFD')));
  assert.equal(out.at(-1)!.partial, undefined);
  assert.equal(join(out), `${long}\n`);
  // Within one chunk too.
  assert.equal(join(split([`${'✓'.repeat(50)}\n`], 16)), `${'✓'.repeat(50)}\n`);
  assert.equal(utf8Boundary(Buffer.from('aé'), 2), 1);
});

test('any chunking of the same bytes gives the same lines (seeded)', () => {
  const rand = seededRandom(9);
  const pieces = ['plain', 'crlf\r', 'ü', '😀', '', 'x'.repeat(300), 'tab\there'];
  let text = '';
  for (let i = 0; i < 2000; i++) text += pieces[Math.floor(rand() * pieces.length)]! + (rand() < 0.9 ? '\n' : '');
  const bytes = Buffer.from(text);
  const whole = split([bytes], 256);
  for (let round = 0; round < 20; round++) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length;) {
      const n = 1 + Math.floor(rand() * 700);
      chunks.push(bytes.subarray(i, i + n));
      i += n;
    }
    const lines = split(chunks, 256);
    assert.equal(join(lines), text);
    assert.deepEqual(lines, whole);
  }
});
