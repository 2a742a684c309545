import { buildInventory, type ManifestInventory, type ScannedManifest } from '../../shared/discovery/manifest-inventory';

/**
 * A discovery inventory made from layer objects, for the pure profile tests: each layer becomes one
 * manifest file (file_format_version 1.2.0) in the given order, each driver path one driver manifest.
 */
export interface FakeLayer {
  path: string;
  layer: Record<string, unknown>;
}

export function fakeInventory(files: { implicit?: FakeLayer[]; explicit?: FakeLayer[]; drivers?: string[] }): ManifestInventory {
  const scanned = (kind: ScannedManifest['kind'], list: { path: string; text: string }[]): ScannedManifest[] =>
    list.map((f, order) => ({
      path: f.path,
      kind,
      origin: 'test',
      location: f.path.slice(0, f.path.lastIndexOf('/')),
      order,
      readdirOrder: false,
      text: f.text,
      problem: null,
      duplicateOf: null,
    }));
  const layerText = (l: FakeLayer) => ({ path: l.path, text: JSON.stringify({ file_format_version: '1.2.0', layer: l.layer }) });
  return buildInventory(
    { implicit_layer: [], explicit_layer: [], driver: [] },
    {
      implicit_layer: scanned('implicit_layer', (files.implicit ?? []).map(layerText)),
      explicit_layer: scanned('explicit_layer', (files.explicit ?? []).map(layerText)),
      driver: scanned(
        'driver',
        (files.drivers ?? []).map((path) => ({
          path,
          text: JSON.stringify({ file_format_version: '1.0.0', ICD: { library_path: '/lib/x.so', api_version: '1.3.0' } }),
        })),
      ),
    },
  );
}

export const explicitLayer = (name: string, dir = '/usr/share/vulkan/explicit_layer.d'): FakeLayer => ({
  path: `${dir}/${name}.json`,
  layer: { name, type: 'GLOBAL', library_path: `lib${name}.so`, api_version: '1.3.0', implementation_version: '1', description: 'test' },
});

export const implicitLayer = (name: string, disable: string, enable?: [string, string], dir = '/usr/share/vulkan/implicit_layer.d'): FakeLayer => ({
  path: `${dir}/${name}.json`,
  layer: {
    name,
    type: 'GLOBAL',
    library_path: `lib${name}.so`,
    api_version: '1.3.0',
    implementation_version: '1',
    description: 'test',
    disable_environment: { [disable]: '1' },
    ...(enable ? { enable_environment: { [enable[0]]: enable[1] } } : {}),
  },
});
