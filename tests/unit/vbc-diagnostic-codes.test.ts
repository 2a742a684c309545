import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { vbcDiagnostic, vbcDiagnosticCodes } from '../../shared/shader/vbc-diagnostic-codes';
import { APP_ROOT } from '../helpers/strata-cli';

// shared/shader/vbc-diagnostic-codes.ts: the VBC codes, their severities and where docs/vbc.md lists them.
const WORD: Partial<Record<DiagnosticSeverity, string>> = { [DiagnosticSeverity.Error]: 'error', [DiagnosticSeverity.Warning]: 'warning' };

test('docs/vbc.md lists every code once, with its severity (a row may name several: `vbc/a`, `vbc/b` or `vbc/a` / `b`)', () => {
  const doc = readFileSync(join(APP_ROOT, 'docs', 'vbc.md'), 'utf8');
  const listed: [string, string][] = [];
  for (const m of doc.matchAll(/^\| (`vbc\/[^|]*?) +\| (\w+)/gm))
    for (const t of m[1]!.matchAll(/`([a-z/-]+)`/g)) listed.push([t[1]!.startsWith('vbc/') ? t[1]! : `vbc/${t[1]}`, m[2]!]);
  assert.deepEqual(listed.map(([code]) => code).sort(), Object.keys(vbcDiagnosticCodes).sort());
  const rows = new Map(listed);
  for (const [code, info] of Object.entries(vbcDiagnosticCodes)) assert.equal(rows.get(code), WORD[info.severity], code);
});

test('a VBC diagnostic counts bytes on line 0 and carries its byte offset and format section', () => {
  const d = vbcDiagnostic('vbc/bad-magic', 0, 3, 'bytes 0–2 are "XYZ", not "VBC"');
  assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } });
  assert.equal(d.code, 'vbc/bad-magic');
  assert.equal(d.severity, DiagnosticSeverity.Error);
  assert.equal(d.source, 'strata');
  assert.deepEqual(d.data, { spec: 'VBC format: Header', byteOffset: 0 });
  const w = vbcDiagnostic('vbc/reserved-not-zero', 30, 2, 'm');
  assert.equal(w.severity, DiagnosticSeverity.Warning);
  assert.deepEqual(w.range.end, { line: 0, character: 32 });
});
