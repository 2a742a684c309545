import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineIndex, NESTING_TOO_DEEP, parseLocatedJson, parseLocatedJsonc, plainTree } from '../../shared/manifest/located-json';
import { seededRandom } from '../helpers/seeded-random';
import { APP_ROOT } from '../helpers/strata-cli';

/**
 * parseLocatedJson reads valid JSON by a fast strict pass and leaves everything else to jsonc-parser.
 * Whatever path a text takes, the answer must be exactly jsonc-parser's: same tree, same ranges,
 * same errors. Checked on the fixtures, the installed manifests, hand-made edge cases and seeded
 * mutations of them (a failure names the seed and iteration).
 */

function jsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsonFiles(join(dir, e.name)) : e.name.endsWith('.json') ? [join(dir, e.name)] : [],
  );
}

const installed = ['/usr/share/vulkan/explicit_layer.d', '/usr/share/vulkan/implicit_layer.d', '/usr/share/vulkan/icd.d'].flatMap((d) =>
  readdirSync(d)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(d, f)),
);
const files = [...jsonFiles(join(APP_ROOT, 'tests', 'fixtures')), ...installed].map((f) => readFileSync(f, 'utf8'));

const edges = [
  '',
  ' ',
  '{}',
  '[]',
  ' \t\r\n{ "a" : [ 1 , -0.5e+3 , 2E-2 , 0 , -0 , 1e999 , true , false , null ] }\r\n',
  '{"a":1,"a":2}',
  '{"esc":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\ud800"}',
  '{"k\\u0041y":"v"}',
  '"caf\u00e9 \u2028 \ud83d\ude00"',
  '{"a":"x"}\r{"b":1}',
  '{"a":"line\nbreak"}',
  '{"a":"tab\there"}',
  '{"a":"\\x"}',
  '{"a":"\\u12"}',
  '{"a":01}',
  '{"a":1.}',
  '{"a":.5}',
  '{"a":-}',
  '{"a":+1}',
  '{"a":1e}',
  '{"a":truex}',
  '{"a":nul}',
  '{"a":1,}',
  '[1,]',
  '{"a" 1}',
  '{a:1}',
  '\ufeff{}',
  '{} // c',
  '/* c */ {}',
  '{}}',
  '{"a":[1 2]}',
  '{"a":{"b":{"c":[[[]]]}}}',
  '\u000b{}',
  '{"a":"\u007f"}',
  '{"a":"\u001f"}',
  '{"a":1}\n\n',
  '\r\n\r\n{\r\n"a"\r\n:\r\n"b"\r\n}',
  'true',
  'nullx',
  '12 34',
  '"\\',
  '"abc',
];

function same(text: string, where: string) {
  assert.deepEqual(parseLocatedJson(text), parseLocatedJsonc(text), `${where}: ${JSON.stringify(text.slice(0, 200))}`);
}

test('fixtures and installed manifests: the same tree, ranges and errors as jsonc-parser', () => {
  assert.ok(files.length > 20);
  files.forEach((t, i) => same(t, `file ${i}`));
});

test('edge cases of the JSON grammar: the same answer as jsonc-parser', () => {
  edges.forEach((t, i) => same(t, `edge ${i}`));
});

test('nesting past the loader’s limit: the strict reader stops where the scan does, with the same error as jsonc-parser’s reading', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const texts = [
    deep(1000),
    deep(1001),
    `{"a":${deep(1000)}}`,
    `{"a": [1, {"b": ${deep(999)}}]}`,
    `{"x": "[[[{{{", "a": ${deep(1001)}}`,
    // A syntax error before the deep part: the strict reader gives up first, and the scan still finds it.
    `{"a": 1,, "b": ${deep(1001)}}`,
    '['.repeat(5000),
  ];
  texts.forEach((t, i) => same(t, `deep ${i}`));
  assert.equal(parseLocatedJson(deep(1000)).errors.length, 0);
  const tooDeep = parseLocatedJson(`{"a":${deep(1000)}}`);
  assert.equal(tooDeep.root, undefined);
  assert.deepEqual(tooDeep.errors, [{ error: NESTING_TOO_DEEP, range: { start: { line: 0, character: 5 + 999 }, end: { line: 0, character: 5 + 1000 } } }]);
});

test('seeded mutations: the same answer as jsonc-parser', () => {
  const SEED = 0x10ca_7ed;
  const next = seededRandom(SEED);
  const JUNK = [
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"',
    '\\',
    '\\u',
    '0',
    '-',
    '.',
    'e',
    '+',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u0001',
    't',
    'n',
    'x',
    '/',
    '*',
    '\ufeff',
    'é',
  ];
  const seeds = [...edges.filter((e) => e.length > 2), ...files.map((f) => (f.length > 3000 ? f.slice(0, 3000) : f))];
  for (let i = 0; i < 4000; i++) {
    let text = seeds[Math.floor(next() * seeds.length)]!;
    const at = Math.floor(next() * (text.length + 1));
    const op = Math.floor(next() * 4);
    if (op === 0) text = text.slice(0, at) + text.slice(at + 1);
    else if (op === 1) text = text.slice(0, at) + JUNK[Math.floor(next() * JUNK.length)]! + text.slice(at);
    else if (op === 2) text = text.slice(0, at);
    else text = text.slice(0, at) + JUNK[Math.floor(next() * JUNK.length)]! + text.slice(at + 1);
    same(text, `seed ${SEED} iteration ${i}`);
  }
});

test('LineIndex.position: the line and column of every offset, asked in text order, backwards and at random', () => {
  const random = seededRandom(19);
  const text = Array.from({ length: 400 }, (_, i) => 'x'.repeat(Math.floor(random() * 30)) + (i % 7 === 3 ? '\r\n' : i % 11 === 5 ? '\r' : '\n')).join('');
  // What a position is, by counting: LF, CRLF and CR each end a line.
  const expected: { line: number; character: number }[] = [];
  for (let o = 0, line = 0, start = 0; o <= text.length; o++) {
    expected.push({ line, character: o - start });
    const c = text[o];
    if (c === '\n' || (c === '\r' && text[o + 1] !== '\n')) {
      line++;
      start = o + 1;
    }
  }
  const offsets = [...expected.keys()];
  const orders = [offsets, [...offsets].reverse(), offsets.map(() => Math.floor(random() * (text.length + 1)))];
  for (const order of orders) {
    const lines = new LineIndex(text);
    for (const o of order) assert.deepEqual(lines.position(o), expected[o], `offset ${o}`);
  }
  assert.deepEqual(new LineIndex(text).position(text.length + 5), expected[text.length]);
});

/** A parse's tree and errors with every range at line 0, column 0: what a parse without positions gives a valid file. */
const zeroRanges = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(zeroRanges)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value).map(([k, v]) => [
            k,
            k === 'range' || k === 'keyRange' ? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } : zeroRanges(v),
          ]),
        )
      : value;

test('without positions: the same tree with zero ranges for a valid file; a file with errors is read with its positions', () => {
  for (const [i, text] of [...files, ...edges].entries()) {
    const full = parseLocatedJson(text);
    const bare = parseLocatedJson(text, { positions: false });
    if (full.errors.length === 0) assert.deepEqual(zeroRanges(bare.root), zeroRanges(full.root), `text ${i}`);
    else assert.deepEqual({ root: bare.root, errors: bare.errors }, { root: full.root, errors: full.errors }, `text ${i}`);
  }
  const valid = parseLocatedJson('{\n  "a": [1, "b"]\n}', { positions: false });
  assert.deepEqual(valid.lines.range(3, 4), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
});

test("without positions a valid file is JSON.parse's value as a tree, unless that would not be the strict reader's tree", () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const cases = [
    ...files,
    '{"a":1,"a":2}',
    '{"o":{"x":1,"y":{"x":2,"x":3}}}',
    '{"b":1,"10":2,"a":3}',
    '{"0x":1}',
    '{"__proto__":{"p":1},"constructor":2}',
    '{"a:\\"b":"c:d","e":"\\\\","f":":"}',
    '{"k":"\\":\\"","k":1}',
    ' [ -0 , 1e999 , "\\ud800" , {"":""} ] ',
    deep(1000),
    deep(1001),
  ];
  const random = seededRandom(0x5ca1ab1e);
  for (let i = 0; i < 300; i++) {
    // Random objects with names drawn from a few, so that some repeat.
    const names = ['a', 'b', 'a:b', 'c\\"', '1', ''];
    const object = (depth: number): string =>
      `{${Array.from({ length: Math.floor(random() * 4) }, () => `"${names[Math.floor(random() * names.length)]}":${depth < 3 && random() < 0.4 ? object(depth + 1) : Math.floor(random() * 9)}`).join(',')}}`;
    cases.push(object(0));
  }
  let plain = 0;
  for (const [i, text] of cases.entries()) {
    const full = parseLocatedJson(text);
    if (full.errors.length > 0) continue;
    const tree = plainTree(text);
    if (tree) {
      plain++;
      assert.deepEqual(zeroRanges(tree), zeroRanges(full.root), `case ${i}: ${text.slice(0, 80)}`);
    }
    assert.deepEqual(zeroRanges(parseLocatedJson(text, { positions: false }).root), zeroRanges(full.root), `case ${i} (positions: false)`);
  }
  // Which texts JSON.parse reads: the installed manifests and fixtures, not the names given twice, a
  // name that is an array index, or nesting past the limit.
  assert.ok(plain > files.length / 2, `${plain} of ${cases.length} read by JSON.parse`);
  for (const refused of ['{"a":1,"a":2}', '{"o":{"x":1,"y":{"x":2,"x":3}}}', '{"b":1,"10":2,"a":3}', '{"k":"\\":\\"","k":1}', deep(1001)])
    assert.equal(plainTree(refused), null, refused.slice(0, 40));
  assert.ok(plainTree(deep(1000)));
  assert.ok(plainTree('{"__proto__":{"p":1},"constructor":2}'));
});
