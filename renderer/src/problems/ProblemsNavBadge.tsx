import { selectErrorCount, useDiscovery } from '../discovery/discovery-store';

/** The number of errors on the Problems sidebar item, once discovery has answered. */
export function ProblemsNavBadge() {
  const errors = useDiscovery(selectErrorCount);
  if (!errors) return null;
  return (
    <span className="nav-count" data-testid="problems-nav-count" aria-label={`${errors} error${errors === 1 ? '' : 's'}`}>
      {errors}
    </span>
  );
}
