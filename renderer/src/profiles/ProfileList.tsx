import { formatStrataError } from '../../../shared/errors/strata-error';
import type { ProfilesList } from '../../../shared/profiles/profile-channels';
import type { ProfileEntry } from './profile-entries';
import { Badge } from '../ui/Card';

function EntryButton({ entry, selected, onSelect }: { entry: ProfileEntry; selected: boolean; onSelect: (key: string) => void }) {
  const unavailable = entry.kind === 'preset' && entry.preset && !entry.preset.available;
  return (
    <li>
      <button
        type="button"
        className="profile-entry"
        aria-current={selected ? 'true' : undefined}
        data-testid="profile-entry"
        data-key={entry.key}
        onClick={() => onSelect(entry.key)}
      >
        <span className="profile-entry-name">
          {entry.name}
          {unavailable && (
            <Badge tone="warning" title={entry.warnings[0]}>
              missing here
            </Badge>
          )}
          {entry.kind === 'profile' && entry.warnings.length > 0 && (
            <Badge tone="warning" title={entry.warnings.join('\n')}>
              unknown layer
            </Badge>
          )}
          {(entry.profile.applications?.length ?? 0) > 0 && <Badge tone="accent">{`${entry.profile.applications!.length} bound`}</Badge>}
        </span>
        <span className="profile-entry-summary">{entry.summary}</span>
      </button>
    </li>
  );
}

/** The presets, the user's profiles, and the profile files that do not read (named, left alone). */
export function ProfileList({
  entries,
  list,
  selected,
  onSelect,
}: {
  entries: ProfileEntry[];
  list: ProfilesList;
  selected: string | null;
  onSelect: (key: string) => void;
}) {
  const presets = entries.filter((e) => e.kind === 'preset');
  const mine = entries.filter((e) => e.kind === 'profile');
  return (
    <nav className="profile-list" aria-label="Profiles and presets">
      <h2 className="profile-list-title">Your profiles</h2>
      {mine.length === 0 ? (
        <p className="profile-list-empty">None yet. Pick a preset and create a profile from it, or import a file.</p>
      ) : (
        <ul className="profile-entries" data-testid="profile-list-mine">
          {mine.map((e) => (
            <EntryButton key={e.key} entry={e} selected={selected === e.key} onSelect={onSelect} />
          ))}
        </ul>
      )}
      <h2 className="profile-list-title">Presets</h2>
      <ul className="profile-entries" data-testid="profile-list-presets">
        {presets.map((e) => (
          <EntryButton key={e.key} entry={e} selected={selected === e.key} onSelect={onSelect} />
        ))}
      </ul>
      {list.problems.length > 0 && (
        <section className="profile-problems" aria-labelledby="profile-problems-title" data-testid="profile-problems">
          <h2 className="profile-list-title" id="profile-problems-title">
            Files that do not read <Badge tone="error">{String(list.problems.length)}</Badge>
          </h2>
          <ul>
            {list.problems.map((p, i) => (
              <li key={i} className="profile-problem">
                {formatStrataError(p)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </nav>
  );
}
