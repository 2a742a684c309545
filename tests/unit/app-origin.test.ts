import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APP_ENTRY_URL, frameNavigationVerdict, isAppUrl, isExternalWebUrl, navigationVerdict } from '../../main/hosts/electron/app-origin';

test('the entry URL is on the app origin', () => {
  assert.equal(APP_ENTRY_URL, 'strata://app/index.html');
  assert.equal(isAppUrl(APP_ENTRY_URL), true);
});

for (const [url, verdict] of [
  ['strata://app/index.html', 'stay'],
  ['strata://app/index.html#/problems', 'stay'],
  ['https://github.com/KhronosGroup/Vulkan-Loader', 'open-external'],
  ['http://vulkan.lunarg.com/doc', 'open-external'],
  ['strata://app.evil/index.html', 'block'],
  ['strata://evil/index.html', 'block'],
  ['file:///home/user/.bashrc', 'block'],
  ['javascript:alert(1)', 'block'],
  ['data:text/html,hi', 'block'],
  ['about:blank', 'block'],
  ['vscode://file/etc/passwd', 'block'],
  ['smb://host/share', 'block'],
  ['https://', 'block'],
  ['', 'block'],
] as const) {
  test(`navigation to ${JSON.stringify(url)}: ${verdict}`, () => assert.equal(navigationVerdict(url), verdict));
}

test('only http(s) URLs with a host count as external web links', () => {
  assert.equal(isExternalWebUrl('https://example.com/'), true);
  assert.equal(isExternalWebUrl('ftp://example.com/'), false);
  assert.equal(isExternalWebUrl('file://example.com/x'), false);
  assert.equal(isExternalWebUrl('strata://app/index.html'), false);
});

test('will-frame-navigate: the main frame as will-navigate; a subframe stays on the app origin and never opens anything', () => {
  for (const url of [APP_ENTRY_URL, 'https://example.com/', 'file:///etc/passwd', 'javascript:alert(1)'])
    assert.equal(frameNavigationVerdict(url, true), navigationVerdict(url), url);
  assert.equal(frameNavigationVerdict(APP_ENTRY_URL, false), 'stay');
  for (const url of ['https://example.com/', 'http://127.0.0.1:8080/', 'file:///etc/passwd', 'data:text/html,x', 'javascript:alert(1)'])
    assert.equal(frameNavigationVerdict(url, false), 'block', url);
});
