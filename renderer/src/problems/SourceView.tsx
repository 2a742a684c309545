import { useLayoutEffect, useMemo, useRef } from 'react';
import type { DiscoveredManifest } from '../../../shared/discovery/manifest-inventory';
import { messageText, positionLabel, severityName, splitFix, SEVERITY_LABELS } from './diagnostic-severity';
import { firstMarkedLine, highlightLines } from './source-lines';
import { PathText } from '../ui/PathText';
import { SeverityIcon } from '../ui/ViewIcons';

type Diagnostic = DiscoveredManifest['diagnostics'][number];

/**
 * A manifest's text, read-only, with line numbers and the diagnostic's range marked and scrolled
 * into view. Line numbers come from CSS (data-line), so copying the code copies only the code.
 */
export function SourceView({ manifest, diagnostic }: { manifest: DiscoveredManifest; diagnostic: Diagnostic }) {
  const lines = useMemo(() => (manifest.text === null ? null : highlightLines(manifest.text, diagnostic.range)), [manifest.text, diagnostic.range]);
  const scroller = useRef<HTMLDivElement>(null);
  const target = useRef<HTMLDivElement>(null);
  const sev = severityName(diagnostic.severity);
  const { text, fix } = splitFix(messageText(diagnostic.message));
  const first = lines ? firstMarkedLine(lines) : -1;

  // Scroll only the code box (not the page) so the marked line sits about a third of the way down.
  useLayoutEffect(() => {
    const box = scroller.current;
    const line = target.current;
    if (!box || !line) return;
    box.scrollTop = Math.max(0, line.offsetTop - box.clientHeight / 3);
  }, [lines, first]);

  return (
    <section className="source-pane" aria-label="Source" data-testid="source-view">
      <header className="source-header">
        <span className="source-path path" title={manifest.path}>
          <PathText path={manifest.path} />
        </span>
        <span className="source-origin">
          <code className="code-chip">{manifest.origin}</code>
        </span>
      </header>
      <div className={`source-callout severity-callout-${sev}`} data-testid="source-message">
        <SeverityIcon severity={sev} />
        <div className="source-callout-body">
          <p className="source-callout-title">
            <span className="visually-hidden">{SEVERITY_LABELS[sev]}:</span>
            <code className="diag-code">{String(diagnostic.code ?? '')}</code>
            <span className="source-callout-pos">
              Line {diagnostic.range.start.line + 1}, column {diagnostic.range.start.character + 1}
            </span>
          </p>
          <p className="source-callout-text">{text}</p>
          {fix && (
            <p className="problem-fix">
              <span className="problem-fix-label">Fix:</span> {fix}
            </p>
          )}
        </div>
      </div>
      {lines === null ? (
        <p className="card-empty source-none">The file could not be read, so there is no text to show.</p>
      ) : (
        <div className="source-code" ref={scroller} tabIndex={0} role="region" aria-label={`Text of ${manifest.path}`}>
          <pre className="source-pre">
            {lines.map((line, i) => (
              <div
                key={line.number}
                ref={i === first ? target : undefined}
                className={`source-line${line.marked ? ` is-marked marked-${sev}` : ''}`}
                data-line={line.number}
                data-testid={line.marked ? 'source-marked-line' : undefined}
              >
                <code className="source-text">
                  {line.segments.map((s, j) =>
                    s.highlight ? (
                      <mark key={j} className={`source-highlight highlight-${sev}`} data-testid="source-highlight">
                        {s.text}
                      </mark>
                    ) : (
                      <span key={j}>{s.text}</span>
                    ),
                  )}
                  {line.endMarker && (
                    <mark className={`source-eol highlight-${sev}`} data-testid="source-highlight" aria-label={`at the end of line ${line.number}`} />
                  )}
                  {'\n'}
                </code>
              </div>
            ))}
          </pre>
        </div>
      )}
      <p className="source-footer muted">
        Read-only · {lines?.length ?? 0} lines · range {positionLabel(diagnostic.range.start)}–{positionLabel(diagnostic.range.end)}
      </p>
    </section>
  );
}
