import { unifiedDiff } from '../../../shared/text/unified-diff';

/** One line of a unified diff, as the view colours it. */
function lineKind(line: string): 'add' | 'del' | 'hunk' | 'head' | 'ctx' {
  if (line.startsWith('+++') || line.startsWith('---')) return 'head';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

const SR_PREFIX = { add: 'added: ', del: 'removed: ', hunk: '', head: '', ctx: '' } as const;

/** A unified diff (`diff -u`), coloured by line; screen readers hear "added:" / "removed:" before a changed line. */
export function DiffText({ diff, label, testId }: { diff: string; label: string; testId?: string }) {
  const lines = diff.split('\n');
  return (
    <pre className="diff-view" aria-label={label} data-testid={testId} tabIndex={0}>
      {lines.map((line, i) => {
        const kind = lineKind(line);
        return (
          <span className={`diff-line diff-${kind}`} key={i}>
            {SR_PREFIX[kind] && <span className="visually-hidden">{SR_PREFIX[kind]}</span>}
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

/** The diff of a file from its text now (null: no file) to its text after. */
export function FileDiff({ path, before, after, testId }: { path: string; before: string | null; after: string | null; testId?: string }) {
  const diff = unifiedDiff(before ?? '', after ?? '', {
    fromLabel: before === null ? '/dev/null' : `${path} (on disk now)`,
    toLabel: after === null ? '/dev/null' : `${path} (after)`,
    maxLines: 400,
  });
  if (!diff) return <p className="muted">No change.</p>;
  return <DiffText diff={diff} label={`Changes to ${path}`} {...(testId ? { testId } : {})} />;
}
