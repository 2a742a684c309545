import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstMarkedLine, highlightLines, splitLines, type SourceLine } from '../../renderer/src/problems/source-lines';

const range = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });
/** Each line as text with the highlighted part in [brackets] and an end marker as ¶. */
const show = (lines: SourceLine[]) => lines.map((l) => l.segments.map((s) => (s.highlight ? `[${s.text}]` : s.text)).join('') + (l.endMarker ? '¶' : ''));
const marked = (lines: SourceLine[]) => lines.filter((l) => l.marked).map((l) => l.number);

test('splitLines: \\n, \\r\\n and a lone \\r end lines, as LSP counts them; a final newline gives an empty last line', () => {
  assert.deepEqual(splitLines('a\nb\r\nc\rd'), ['a', 'b', 'c', 'd']);
  assert.deepEqual(splitLines('{\n}\n'), ['{', '}', '']);
  assert.deepEqual(splitLines(''), ['']);
});

test('no range: numbered lines, nothing marked', () => {
  const lines = highlightLines('{\n  "a": 1\n}', null);
  assert.deepEqual(
    lines.map((l) => l.number),
    [1, 2, 3],
  );
  assert.deepEqual(show(lines), ['{', '  "a": 1', '}']);
  assert.equal(firstMarkedLine(lines), -1);
});

test('a range inside one line splits it into before, highlight, after', () => {
  const lines = highlightLines('{\n  "name": 42\n}', range(1, 10, 1, 12));
  assert.deepEqual(show(lines), ['{', '  "name": [42]', '}']);
  assert.deepEqual(marked(lines), [2]);
  assert.equal(firstMarkedLine(lines), 1);
});

test('a multi-line range: the end of the first line, whole middle lines, the start of the last', () => {
  const text = '{\n  "layer": {\n    "name": "x"\n  }\n}';
  assert.deepEqual(show(highlightLines(text, range(1, 11, 3, 3))), ['{', '  "layer": [{]', '[    "name": "x"]', '[  }]', '}']);
  assert.deepEqual(marked(highlightLines(text, range(1, 11, 3, 3))), [2, 3, 4]);
});

test('a range ending at column 0 of a line does not reach that line (as in editors)', () => {
  const lines = highlightLines('ab\ncd\nef', range(0, 1, 2, 0));
  assert.deepEqual(show(lines), ['a[b]', '[cd]', 'ef']);
  assert.deepEqual(marked(lines), [1, 2]);
});

test('an empty range highlights the character after it', () => {
  assert.deepEqual(show(highlightLines('{"a": }', range(0, 6, 0, 6))), ['{"a": [}]']);
});

test('an empty range at the end of a line, or on an empty line, puts a marker there', () => {
  assert.deepEqual(show(highlightLines('{\n  "a": 1,\n', range(1, 10, 1, 10))), ['{', '  "a": 1,¶', '']);
  assert.deepEqual(show(highlightLines('{\n\n}', range(1, 0, 1, 0))), ['{', '¶', '}']);
  // Strata's file-level diagnostics use 0:0–0:0: the first character is highlighted.
  assert.deepEqual(show(highlightLines('{}', range(0, 0, 0, 0))), ['[{]}']);
  // An empty file: one empty line, marked.
  const empty = highlightLines('', range(0, 0, 0, 0));
  assert.deepEqual(show(empty), ['¶']);
  assert.equal(firstMarkedLine(empty), 0);
});

test('a range that starts at the end of its line and goes on marks that end, then the next lines', () => {
  assert.deepEqual(show(highlightLines('ab\ncd', range(0, 2, 1, 1))), ['ab¶', '[c]d']);
});

test('a range past the text is clamped to it; a backwards range is read with its ends swapped', () => {
  assert.deepEqual(show(highlightLines('ab\ncd', range(1, 1, 9, 9))), ['ab', 'c[d]']);
  assert.deepEqual(show(highlightLines('ab\ncd', range(5, 0, 5, 0))), ['ab', 'cd¶']);
  assert.deepEqual(show(highlightLines('abcdef', range(0, 4, 0, 1))), ['a[bcd]ef']);
  assert.deepEqual(show(highlightLines('abc', range(0, 1, 0, 99))), ['a[bc]']);
});

test('CRLF text: the \\r is not part of the line, so columns match LSP positions', () => {
  assert.deepEqual(show(highlightLines('{\r\n  "x": 1\r\n}', range(1, 7, 1, 8))), ['{', '  "x": [1]', '}']);
});
