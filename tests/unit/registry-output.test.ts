import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enabledManifestNames, longKeyName, parseRegQueryOutput, pnpManifestPaths } from '../../shared/discovery/registry-output';

/**
 * `reg query` output as reg.exe prints it (CRLF line ends, a blank line first, values indented four
 * spaces with four spaces around the type, subkeys after a blank line as full key names), written
 * from the documented layout and the spec's example values ("ICD discovery / Windows").
 */
const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';

const IMPLICIT_LAYERS = crlf([
  '',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers',
  '    C:\\Program Files\\RenderDoc\\renderdoc.json    REG_DWORD    0x0',
  '    C:\\ProgramData\\obs-studio-hook\\obs-vulkan64.json    REG_DWORD    0x0',
  '    C:\\Program Files (x86)\\Steam\\SteamOverlayVulkanLayer64.json    REG_DWORD    0x1',
  '    C:\\Tools\\Odd  Name\\layer.json    REG_DWORD    0x00000000',
  '',
]);

test('Khronos key: names with spaces (and double spaces) are manifest paths, DWORD 0 enables, anything else disables', () => {
  const listing = parseRegQueryOutput(IMPLICIT_LAYERS, 'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers');
  assert.equal(listing.exists, true);
  assert.deepEqual(listing.subkeys, []);
  assert.deepEqual(
    listing.values.map((v) => [v.name, v.type, v.data]),
    [
      ['C:\\Program Files\\RenderDoc\\renderdoc.json', 'REG_DWORD', 0],
      ['C:\\ProgramData\\obs-studio-hook\\obs-vulkan64.json', 'REG_DWORD', 0],
      ['C:\\Program Files (x86)\\Steam\\SteamOverlayVulkanLayer64.json', 'REG_DWORD', 1],
      ['C:\\Tools\\Odd  Name\\layer.json', 'REG_DWORD', 0],
    ],
  );
  assert.deepEqual(enabledManifestNames(listing.values), [
    'C:\\Program Files\\RenderDoc\\renderdoc.json',
    'C:\\ProgramData\\obs-studio-hook\\obs-vulkan64.json',
    'C:\\Tools\\Odd  Name\\layer.json',
  ]);
});

test('the spec example of HKLM\\SOFTWARE\\Khronos\\Vulkan\\Drivers', () => {
  const text = crlf([
    '',
    'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\Drivers',
    '    C:\\vendor a\\vk_vendora.json    REG_DWORD    0x0',
    '    C:\\windows\\system32\\vendorb_vk.json    REG_DWORD    0x0',
    '    C:\\windows\\system32\\vendorc_icd.json    REG_DWORD    0x0',
    '',
  ]);
  assert.deepEqual(enabledManifestNames(parseRegQueryOutput(text, 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\Drivers').values), [
    'C:\\vendor a\\vk_vendora.json',
    'C:\\windows\\system32\\vendorb_vk.json',
    'C:\\windows\\system32\\vendorc_icd.json',
  ]);
});

test('a missing key reads as empty (reg.exe: ERROR … unable to find …)', () => {
  const text = 'ERROR: The system was unable to find the specified registry key or value.\r\n';
  assert.deepEqual(parseRegQueryOutput(text, 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers'), { exists: false, values: [], subkeys: [] });
});

test('an empty key: no values, no subkeys (with or without its own header line)', () => {
  const key = 'HKCU\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers';
  assert.deepEqual(parseRegQueryOutput('\r\n', key), { exists: true, values: [], subkeys: [] });
  assert.deepEqual(parseRegQueryOutput(crlf(['', 'HKEY_CURRENT_USER\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers', '']), key), {
    exists: true,
    values: [],
    subkeys: [],
  });
});

const DISPLAY_CLASS = 'HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}';

test('a class key: its values, then its subkeys by name (reg.exe prints the key in its own capitalisation)', () => {
  const text = crlf([
    '',
    DISPLAY_CLASS,
    '    (Default)    REG_SZ    Display adapters',
    '    Class    REG_SZ    Display',
    '    ClassDesc    REG_SZ    @%systemroot%\\system32\\display.dll,-1000',
    '    IconPath    REG_MULTI_SZ    %systemroot%\\system32\\setupapi.dll,-1',
    '    NoInstallClass    REG_SZ    ',
    '',
    `${DISPLAY_CLASS}\\0000`,
    `${DISPLAY_CLASS}\\0001`,
    `${DISPLAY_CLASS}\\Configuration`,
    `${DISPLAY_CLASS}\\Properties`,
  ]);
  const listing = parseRegQueryOutput(text, 'HKLM\\System\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}');
  assert.deepEqual(listing.subkeys, ['0000', '0001', 'Configuration', 'Properties']);
  assert.deepEqual(
    listing.values.map((v) => [v.name, v.type, v.data]),
    [
      ['(Default)', 'REG_SZ', 'Display adapters'],
      ['Class', 'REG_SZ', 'Display'],
      ['ClassDesc', 'REG_SZ', '@%systemroot%\\system32\\display.dll,-1000'],
      ['IconPath', 'REG_MULTI_SZ', ['%systemroot%\\system32\\setupapi.dll,-1']],
      ['NoInstallClass', 'REG_SZ', ''],
    ],
  );
});

test('a key with subkeys only prints no header of its own', () => {
  const text = crlf(['', `${DISPLAY_CLASS}\\0000`, `${DISPLAY_CLASS}\\0001`]);
  assert.deepEqual(parseRegQueryOutput(text, DISPLAY_CLASS), { exists: true, values: [], subkeys: ['0000', '0001'] });
});

test('a display adapter key: REG_MULTI_SZ and REG_SZ manifest values, other types ignored', () => {
  const key = `${DISPLAY_CLASS}\\0000`;
  const text = crlf([
    '',
    key,
    '    DriverDesc    REG_SZ    NVIDIA GeForce RTX 4070',
    '    HardwareInformation.qwMemorySize    REG_QWORD    0x300000000',
    '    HardwareInformation.ChipType    REG_BINARY    4E0056004900440049004100',
    '    VulkanDriverName    REG_MULTI_SZ    C:\\Windows\\System32\\DriverStore\\FileRepository\\nv_dispi.inf_amd64_1\\nv-vk64.json',
    '    VulkanDriverNameWow    REG_MULTI_SZ    C:\\Windows\\System32\\DriverStore\\FileRepository\\nv_dispi.inf_amd64_1\\nv-vk32.json',
    '    VulkanImplicitLayers    REG_MULTI_SZ    C:\\Drivers\\a layer.json\\0C:\\Drivers\\second.json',
    '    VulkanExplicitLayers    REG_SZ    C:\\Drivers\\explicit.json',
    '    VulkanImplicitLayersWow    REG_DWORD    0x0',
    '    InstalledDisplayDrivers    REG_MULTI_SZ    ',
    '',
  ]);
  const { values } = parseRegQueryOutput(text, key);
  assert.deepEqual(values.find((v) => v.name === 'HardwareInformation.qwMemorySize')?.data, 0x300000000);
  assert.deepEqual(pnpManifestPaths(values, 'VulkanDriverName'), ['C:\\Windows\\System32\\DriverStore\\FileRepository\\nv_dispi.inf_amd64_1\\nv-vk64.json']);
  assert.deepEqual(pnpManifestPaths(values, 'VulkanImplicitLayers'), ['C:\\Drivers\\a layer.json', 'C:\\Drivers\\second.json']);
  assert.deepEqual(pnpManifestPaths(values, 'vulkanexplicitlayers'), ['C:\\Drivers\\explicit.json'], 'value names are case-insensitive');
  assert.deepEqual(pnpManifestPaths(values, 'VulkanImplicitLayersWow'), [], 'a DWORD is not a path');
  assert.deepEqual(pnpManifestPaths(values, 'InstalledDisplayDrivers'), []);
  assert.deepEqual(pnpManifestPaths(values, 'VulkanDriverNameComputeOnly'), []);
  // The data of a REG_SZ may hold four spaces and a type name: the name is what comes first.
  const tricky = parseRegQueryOutput(crlf(['', key, '    Note    REG_SZ    see    REG_DWORD    0x0']), key).values;
  assert.deepEqual(tricky, [{ name: 'Note', type: 'REG_SZ', data: 'see    REG_DWORD    0x0' }]);
});

test('Unix line ends and short root names work the same', () => {
  const text = IMPLICIT_LAYERS.replace(/\r\n/g, '\n');
  assert.equal(parseRegQueryOutput(text, 'hklm\\SOFTWARE\\Khronos\\Vulkan\\ImplicitLayers').values.length, 4);
  assert.equal(longKeyName('HKCU\\SOFTWARE\\X'), 'HKEY_CURRENT_USER\\SOFTWARE\\X');
  assert.equal(longKeyName('HKEY_LOCAL_MACHINE\\SOFTWARE'), 'HKEY_LOCAL_MACHINE\\SOFTWARE');
});

test("enabledManifestNames reads a key as the loader's RegEnumValueA loop does (checked under Wine by windows-discovery-vs-loader)", () => {
  const values = parseRegQueryOutput(
    crlf([
      '',
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers',
      '    C:\\a.json    REG_BINARY    00000000',
      '    C:\\b.json    REG_BINARY    00000001',
      '    C:\\c.json    REG_SZ    ab',
      '    C:\\d.json    REG_DWORD    0x0',
      '    C:\\e.json    REG_SZ    C:\\longer than four bytes',
      '    C:\\f.json    REG_DWORD    0x0',
      '',
    ]),
    'HKLM\\SOFTWARE\\Khronos\\Vulkan\\ExplicitLayers',
  ).values;
  // Four zero bytes of any type enable; a short string is skipped; data over 4 bytes ends the loop.
  assert.deepEqual(enabledManifestNames(values), ['C:\\a.json', 'C:\\d.json']);
  assert.deepEqual(
    enabledManifestNames([
      { name: 'C:\\q.json', type: 'REG_QWORD', data: 0 },
      { name: 'C:\\r.json', type: 'REG_DWORD', data: 0 },
    ]),
    [],
  );
  assert.deepEqual(
    enabledManifestNames([
      { name: `C:\\${'x'.repeat(2050)}.json`, type: 'REG_DWORD', data: 0 },
      { name: 'C:\\r.json', type: 'REG_DWORD', data: 0 },
    ]),
    [],
  );
});
