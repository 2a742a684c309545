import type { ManifestInventory } from '../../../shared/discovery/manifest-inventory';
import type { LocationStatus, ManifestKind } from '../../../shared/loader/search-paths';
import { KIND_ORDER } from '../problems/problem-groups';
import { useDiscovery } from '../stores/discovery-store';
import { Badge } from './Card';
import { LoadingLine } from './LoadingLine';
import { PathText } from './PathText';
import { RequestErrorMessage } from './RequestErrorMessage';
import { ChevronIcon } from './ViewIcons';

const KIND_TITLES: Readonly<Record<ManifestKind, string>> = {
  implicit_layer: 'Implicit layers',
  explicit_layer: 'Explicit layers',
  driver: 'Drivers (ICDs)',
};

const SOURCE_LABELS: Readonly<Record<LocationStatus['source'], string>> = {
  environment: 'Set in environment',
  default: 'Default',
  build: 'Built into the loader',
  registry: 'Registry',
  bundle: 'App bundle',
};

function manifestsAt(inventory: ManifestInventory | null, kind: ManifestKind, location: string): number | null {
  if (!inventory) return null;
  return (inventory.manifests[kind] ?? []).filter((m) => m.location === location).length;
}

function LocationTable({ kind, locations, inventory }: { kind: ManifestKind; locations: readonly LocationStatus[]; inventory: ManifestInventory | null }) {
  return (
    <div className="search-order-kind">
      <h3 className="search-order-title">
        {KIND_TITLES[kind]} <span className="layer-group-count">{locations.length}</span>
      </h3>
      {locations.length === 0 ? (
        <p className="card-empty">No location: the loader searches nothing for this kind (an empty override variable?).</p>
      ) : (
        <div className="table-scroll search-order-scroll">
          <table className="table" data-testid={`search-order-${kind}`}>
            <thead>
              <tr>
                <th scope="col" className="col-fit">
                  #
                </th>
                <th scope="col">Location</th>
                <th scope="col" className="col-fit">
                  Origin
                </th>
                <th scope="col" className="col-fit">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {locations.map((loc, i) => {
                const found = manifestsAt(inventory, kind, loc.path);
                return (
                  <tr key={`${i}:${loc.path}`} className={loc.exists === false ? 'is-missing' : undefined}>
                    <td className="search-order-index">{i + 1}</td>
                    <td className="path">
                      <PathText path={loc.path} />
                      {loc.entry !== 'folder' && <span className="muted search-order-entry"> ({loc.entry === 'file' ? 'file' : 'registry key'})</span>}
                      {loc.alsoFrom.length > 0 && <span className="search-order-also">Also named by {loc.alsoFrom.join(', ')} (read once)</span>}
                    </td>
                    <td>
                      <code className="code-chip">{loc.origin}</code>
                      <span className="search-order-source">{SOURCE_LABELS[loc.source]}</span>
                    </td>
                    <td>
                      {loc.exists === false ? (
                        <Badge tone="neutral">Not there</Badge>
                      ) : loc.exists === null ? (
                        <Badge tone="neutral">Not checked</Badge>
                      ) : (
                        <Badge tone={found ? 'ok' : 'neutral'}>{found === null ? 'Exists' : `${found} manifest${found === 1 ? '' : 's'}`}</Badge>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * Where the loader looks, in its order (discovery.paths), folded away by default: the answer to
 * "why is (or isn't) my layer found?". A native <details>, so it opens with Enter/Space as is.
 */
export function SearchOrderSection() {
  const paths = useDiscovery((s) => s.paths);
  const manifests = useDiscovery((s) => s.manifests);
  const retry = useDiscovery((s) => s.loadPaths);
  const inventory = manifests.status === 'ready' ? manifests.value : null;

  return (
    <details className="card search-order" data-testid="search-order">
      <summary className="search-order-summary">
        <ChevronIcon />
        <span className="card-title">Search order</span>
        <span className="muted search-order-hint">Every folder and file the loader reads, in the order it reads them</span>
      </summary>
      <div className="card-body">
        {paths.status === 'error' ? (
          <RequestErrorMessage title="Could not compute the search paths" error={paths.error} onRetry={() => void retry()} />
        ) : paths.status !== 'ready' ? (
          <LoadingLine text="Computing the search paths…" />
        ) : (
          <>
            {paths.value.elevated && (
              <p className="card-note">Strata runs with elevated privileges: the loader ignores the user’s folders and most variables.</p>
            )}
            {KIND_ORDER.map((kind) => (
              <LocationTable key={kind} kind={kind} locations={paths.value.locations[kind]} inventory={inventory} />
            ))}
          </>
        )}
      </div>
    </details>
  );
}
