import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asciiLower, disableMatch, enableMatch, matchNameFilters, parseDisableFilter, parseEnableFilter } from '../../shared/loader/layer-filters';

// shared/loader/layer-filters.ts: how loader 1.3.239 reads VK_LOADER_LAYERS_ENABLE / _DISABLE. The
// odd cases ("**", "v*") are confirmed against the real loader by the pinned scenarios of
// tests/helpers/chain-scenarios.ts.

const kinds = (raw: string) => parseEnableFilter(raw)!.filters.map((f) => `${f.kind}:${f.value}`);

test('items: comma-separated, empty ones dropped, lower-cased, stars give the kind', () => {
  assert.deepEqual(kinds('VK_LAYER_X,,*Mid*,pre*,*Suf,~all~'), ['full-name:vk_layer_x', 'substring:mid', 'prefix:pre', 'suffix:suf', 'special:~all~']);
});

test('loader 1.3.239 quirks: "*" is a prefix of "" (every layer); "**" a suffix "*"; a two-character "a*" a full name', () => {
  assert.deepEqual(kinds('*,**,a*,*a'), ['prefix:', 'suffix:*', 'full-name:a*', 'suffix:a']);
  const f = parseEnableFilter('*,**,v*')!;
  assert.equal(matchNameFilters('VK_LAYER_ANY', f.filters.slice(0, 1))?.item, '*');
  assert.equal(matchNameFilters('VK_LAYER_ANY', f.filters.slice(1)), null);
  assert.match(f.notes.join('\n'), /"\*\*" as "names ending in \*"/);
  assert.match(f.notes.join('\n'), /two-character "v\*" as a full layer name/);
});

test('matching is case-insensitive, by kind; a filter longer than the name never matches', () => {
  const f = parseEnableFilter('VK_LAYER_KHRONOS_VALIDATION,*_API_DUMP,vk_layer_mesa_*,*overlay*')!.filters;
  assert.equal(matchNameFilters('VK_LAYER_KHRONOS_validation', f)?.kind, 'full-name');
  assert.equal(matchNameFilters('VK_LAYER_LUNARG_api_dump', f)?.kind, 'suffix');
  assert.equal(matchNameFilters('VK_LAYER_MESA_device_select', f)?.kind, 'prefix');
  assert.equal(matchNameFilters('VK_LAYER_MESA_overlay', f)?.item, 'vk_layer_mesa_*', 'the first matching filter is reported');
  assert.equal(matchNameFilters('VK_LAYER_KHRONOS_validation_extra', f), null);
  assert.equal(matchNameFilters('AB', parseEnableFilter('~all~')!.filters), null, '"~all~" is longer than "AB"');
});

test('VK_LOADER_LAYERS_DISABLE: ~all~ / ~implicit~ / ~explicit~ are flags, other ~words~ are ignored with a note', () => {
  const d = parseDisableFilter('~Implicit~,~bogus~,VK_LAYER_X')!;
  assert.equal(d.allImplicit, '~Implicit~');
  assert.equal(d.all, null);
  assert.deepEqual(
    d.filters.map((f) => f.value),
    ['vk_layer_x'],
  );
  assert.match(d.notes.join('\n'), /"~bogus~" is not one of/);
  assert.match(disableMatch(d, 'VK_LAYER_IMPL', true)!.why, /~Implicit~ disables every implicit layer/);
  assert.equal(disableMatch(d, 'VK_LAYER_EXPL', false), null);
  assert.match(disableMatch(d, 'vk_layer_x', false)!.why, /filter "VK_LAYER_X" matches the name \(full name/);
  assert.match(disableMatch(parseDisableFilter('~ALL~'), 'Y', false)!.why, /disables every layer/);
});

test('VK_LOADER_LAYERS_ENABLE: only ~all~ is special; ~implicit~ matches nothing and says so', () => {
  const e = parseEnableFilter('~implicit~,~all~')!;
  assert.match(e.notes.join('\n'), /"~implicit~" means nothing here/);
  assert.equal(enableMatch(e, 'VK_LAYER_Y')?.item, '~all~');
  assert.equal(enableMatch(parseEnableFilter('~implicit~'), 'VK_LAYER_Y'), null);
});

test('unset or empty variables are no filter; at most 16 name filters are read', () => {
  assert.equal(parseEnableFilter(undefined), null);
  assert.equal(parseDisableFilter(''), null);
  const many = Array.from({ length: 18 }, (_, i) => `L${i}`).join(',');
  const e = parseEnableFilter(many)!;
  assert.equal(e.filters.length, 16);
  assert.match(e.notes.join('\n'), /only the first 16 items; the other 2 are ignored/);
  // Special items of DISABLE do not count towards the 16, but reading stops at the 16th filter.
  const d = parseDisableFilter(`~implicit~,${many},~explicit~`)!;
  assert.equal(d.filters.length, 16);
  assert.equal(d.allImplicit, '~implicit~');
  assert.equal(d.allExplicit, null);
});

test('spaces are part of the name; only ASCII letters are lower-cased', () => {
  const d = parseDisableFilter(' VK_LAYER_X')!;
  assert.equal(disableMatch(d, 'VK_LAYER_X', false), null);
  assert.match(d.notes.join('\n'), /has spaces/);
  assert.equal(asciiLower('VK_LAYER_Ä_X'), 'vk_layer_Ä_x');
});
