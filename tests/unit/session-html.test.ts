import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, renderSessionHtml, type SessionReportInput } from '../../shared/sessions/session-html';
import { emptyCounts, SESSION_FORMAT, type LineRecord, type MessageRecord, type SessionHeader } from '../../shared/sessions/session-records';
import type { LayerChain } from '../../shared/loader/chain';
import { seededRandom } from '../helpers/seeded-random';

/**
 * Issue #15: the session HTML export escapes every field it interpolates. Property, over seeded
 * random strings full of markup: every leaf of the input (every string, number, boolean, null, and
 * the variable names of the environment tables), enum fields and numbers included, is replaced by
 * hostile text. The export does not rely on the store's validation, so the types are ignored on
 * purpose. Then (1) the HTML's structure (the sequence of < > " ' characters) is that of the same
 * report with harmless text in every field, and (2) no payload appears raw.
 */
const template = (): SessionReportInput => ({
  header: {
    kind: 'header',
    format: SESSION_FORMAT,
    id: 's1',
    application: { command: '/bin/app', args: ['--x', 'y'], cwd: '/tmp', resolvedPath: '/bin/app' },
    profile: { name: 'p', copy: {} },
    chain: {
      loaderVersion: '1.3.239',
      rulesVersion: '1.3.239',
      rules: [],
      result: 'VK_SUCCESS',
      chain: [{ name: 'VK_LAYER_A', type: 'explicit', manifest: '/m/a.json', libraryPath: null, reasons: [{ code: 'enabled-by-app', message: 'asked for' }] }],
      metaLayers: [],
      excluded: [{ name: 'VK_LAYER_B', manifest: null, reasons: [{ code: 'not-found', message: 'no manifest' }] }],
      notes: ['n'],
    } as never,
    chainError: null,
    environment: { set: { VK_LOADER_DEBUG: 'all' }, unset: ['VK_X'], inherited: { HOME: '/home/me' } },
    loaderDebug: 'all',
    validationRouting: { mode: 'fifo', note: 'note' },
    timeoutMs: 1000,
    startedAt: '2024-01-01T00:00:00.000Z',
    startWall: 0,
    strataVersion: '0.1.0',
    strataPid: 1,
    notes: ['a note'],
  },
  footer: {
    kind: 'footer',
    endedAt: 'e',
    endWall: 1,
    durationMs: 1234,
    exit: { reason: 'failed-to-start', code: 1, signal: 'SIGKILL', error: 'ENOENT' },
    counts: emptyCounts(),
  },
  counts: emptyCounts(),
  messages: [
    {
      kind: 'message',
      seq: 2,
      stream: 'validation',
      t: 1,
      wall: 1,
      lines: [1, 1],
      severity: 'error',
      types: ['SPEC'],
      vuid: 'VUID-a',
      messageId: 1,
      objects: [{ index: 0, handle: '0x1', type: 9, typeName: 'VK_OBJECT_TYPE_BUFFER', name: 'Leaked Buffer' }],
      text: 'text',
      specUrl: 'https://registry.khronos.org/x#VUID-a',
      specText: 'spec text',
      complete: true,
    },
  ],
  lines: [{ kind: 'line', seq: 1, stream: 'stdout', t: 1, wall: 1, text: 'hello' }],
  linesOmitted: 5,
  generatedAt: 'now',
});

const SNIPPETS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  "' onmouseover='alert(3)",
  '</pre></td></tr></table>',
  '<!--',
  '-->',
  '&amp;',
  '&#60;',
  'javascript:alert(4)',
  '<style>',
  '\u2028',
  '😀',
  '<a href="//evil">',
];
const CHARS = `<>&"'=/ abcXYZ0;\n\t`;

function hostileString(rand: () => number): string {
  let s = '';
  const parts = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < parts; i++) {
    if (rand() < 0.5) s += SNIPPETS[Math.floor(rand() * SNIPPETS.length)];
    else for (let n = Math.floor(rand() * 8) + 1; n > 0; n--) s += CHARS[Math.floor(rand() * CHARS.length)];
  }
  return s.includes('<') || s.includes('"') ? s : `${s}<b>`; // at least one character that must be escaped
}

/** Every leaf replaced through `leaf`; the keys of environment tables too. A URL field keeps its https: prefix, so both renders link. */
function replaceLeaves(value: unknown, leaf: () => string, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => replaceLeaves(v, leaf));
  if (value !== null && typeof value === 'object') {
    const renameKeys = key === 'set' || key === 'inherited';
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [renameKeys ? leaf() : k, replaceLeaves(v, leaf, k)]));
  }
  if (key === 'specUrl') return `https://registry.khronos.org/${leaf()}`;
  if (key === 'kind') return value; // the record kind selects which list a line goes to; it is never printed
  return leaf();
}

const skeleton = (html: string) => html.replace(/[^<>"']/g, '');

test('property: every interpolated field of the session HTML export is escaped (200 seeded inputs)', () => {
  const benign = renderSessionHtml(replaceLeaves(template(), () => 'a') as SessionReportInput);
  for (let seed = 1; seed <= 200; seed++) {
    const rand = seededRandom(seed);
    const payloads: string[] = [];
    const input = replaceLeaves(template(), () => {
      const s = hostileString(rand);
      payloads.push(s);
      return s;
    }) as SessionReportInput;
    let html: string;
    try {
      html = renderSessionHtml(input);
    } catch (e) {
      assert.fail(`seed ${seed}: the export threw on hostile data: ${(e as Error).message}`);
    }
    assert.equal(skeleton(html), skeleton(benign), `seed ${seed}: hostile text changed the HTML structure`);
    // Payloads that open a tag: escaped, none can appear (one that is itself a piece of the report's own markup, like </td></tr>, is there anyway).
    for (const p of payloads)
      if (/<[a-z]/i.test(p) && !benign.includes(p)) assert.ok(!html.includes(p), `seed ${seed}: ${JSON.stringify(p)} reached the HTML unescaped`);
    assert.doesNotMatch(html, /<script|<img|<a href="\/\/evil/i, `seed ${seed}`);
  }
});

test('the property notices an unescaped field (the check itself can fail)', () => {
  const input = template();
  input.lines = [{ kind: 'line', seq: 1, stream: '<b>' as never, t: 1, wall: 1, text: 'x' }];
  const html = renderSessionHtml(input).replace('&lt;b&gt;', '<b>');
  const benign = renderSessionHtml(template());
  assert.notEqual(skeleton(html), skeleton(benign));
});

// The report on one session with hostile text in it.
const chain = (...names: string[]): LayerChain => ({
  loaderVersion: '1.3.239',
  rulesVersion: '1.3.239',
  rules: [],
  result: 'VK_SUCCESS',
  chain: names.map((name) => ({ name, type: 'explicit', manifest: `/m/${name}.json`, libraryPath: null, reasons: [] })),
  metaLayers: [],
  excluded: [],
  notes: [],
});

const line = (text: string, extra: Partial<LineRecord> = {}): LineRecord => ({ kind: 'line', seq: 1, stream: 'stdout', t: 1, wall: 1, text, ...extra });
const message = (vuid: string, extra: Partial<MessageRecord> = {}): MessageRecord => ({
  kind: 'message',
  seq: 2,
  stream: 'validation',
  t: 1,
  wall: 1,
  lines: [1, 1],
  severity: 'error',
  types: ['SPEC'],
  vuid,
  messageId: 1,
  objects: [{ index: 0, handle: '0x1', type: 9, typeName: 'VK_OBJECT_TYPE_BUFFER', name: 'Leaked Buffer' }],
  text: `text of ${vuid}`,
  specUrl: null,
  specText: null,
  complete: true,
  ...extra,
});

test('HTML report: self-contained, everything captured is escaped, only http(s) links', () => {
  const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
  const header: SessionHeader = {
    kind: 'header',
    format: SESSION_FORMAT,
    id: 's1',
    application: { command: '/bin/app', args: [hostile], cwd: '/tmp', resolvedPath: '/bin/app' },
    profile: { name: `p${hostile}`, copy: {} },
    chain: chain('VK_LAYER_KHRONOS_validation'),
    chainError: null,
    environment: { set: { VK_LOADER_DEBUG: 'all' }, unset: ['VK_X'], inherited: { HOME: '/home/me"' } },
    loaderDebug: 'all',
    validationRouting: { mode: 'fifo', note: null },
    timeoutMs: null,
    startedAt: '2024-01-01T00:00:00.000Z',
    startWall: 0,
    strataVersion: '0.1.0',
    strataPid: 1,
    notes: [hostile],
  };
  const html = renderSessionHtml({
    header,
    footer: null,
    counts: emptyCounts(),
    messages: [message('VUID-a', { text: hostile, specUrl: 'javascript:alert(3)' }), message('VUID-b', { specUrl: 'https://registry.khronos.org/x#VUID-b' })],
    lines: [line(hostile)],
    linesOmitted: 5,
    generatedAt: 'now',
  });
  assert.doesNotMatch(html, /<script|<img|javascript:/i);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/);
  assert.match(html, /<a href="https:\/\/registry\.khronos\.org\/x#VUID-b">VUID-b<\/a>/);
  // No resource is loaded from anywhere: no src=, no stylesheet links, no url() in the style.
  assert.doesNotMatch(html, /<[^>]*\ssrc=|<link|url\(/i);
  assert.match(html, /5 more lines/);
  assert.equal(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
});
