import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { describeCounts, countSeverities, severityName, splitFix, SEVERITY_LABELS } from '../problems/diagnostic-severity';
import { byteRange, lspSeverities, wordRange } from './shader-labels';
import { CheckCircleIcon, SeverityIcon } from '../ui/ViewIcons';

/** The module's validation diagnostics, each at its word offset (a binary has no lines); a VBC file's at their byte offset. */
export function ShaderProblemsTab({ module }: { module: ShaderInspectBytes }) {
  const vbc = module.format === 'vbc';
  if (module.diagnostics.length === 0) {
    return (
      <div className="all-clean" data-testid="shader-problems-empty">
        <span className="all-clean-icon">
          <CheckCircleIcon size={28} />
        </span>
        <p className="all-clean-title">No problems found</p>
        <p className="muted">
          {vbc
            ? 'The file decodes cleanly, its stages follow SPIR-V’s logical layout and id rules (not a full spirv-val) and link, and its reflection matches them.'
            : 'The module decodes cleanly and follows SPIR-V’s logical layout and id rules (not a full spirv-val).'}
        </p>
      </div>
    );
  }
  return (
    <div className="shader-stack">
      <p className="toolbar-status">
        {describeCounts(countSeverities(lspSeverities(module.diagnostics)))} ·{' '}
        {vbc ? 'offsets count bytes from the start of the file' : 'offsets count 32-bit words from the start of the module'}
      </p>
      <ul className="shader-problem-list" data-testid="shader-problems">
        {module.diagnostics.map((d, i) => (
          <ShaderProblemItem key={i} diagnostic={d} testId="shader-problem" position={vbc ? byteRange(d.range) : wordRange(d.range)} />
        ))}
      </ul>
    </div>
  );
}

type Diagnostic = ShaderInspectBytes['diagnostics'][number];

/** One diagnostic as a list item: severity icon, code, message and fix; with `position`, also its place (and the severity spelled out for screen readers). */
export function ShaderProblemItem({ diagnostic: d, testId, position }: { diagnostic: Diagnostic; testId: string; position?: string }) {
  const sev = severityName(d.severity as 1 | 2 | 3 | 4 | undefined);
  const { text, fix } = splitFix(d.message);
  return (
    <li className={`shader-problem severity-${sev}`} data-testid={testId} data-code={String(d.code ?? '')}>
      <SeverityIcon severity={sev} />
      <div className="shader-problem-body">
        <p className="shader-problem-title">
          {position !== undefined && <span className="visually-hidden">{SEVERITY_LABELS[sev]}:</span>}
          <code className="diag-code">{String(d.code ?? '')}</code>
          {position !== undefined && <span className="shader-problem-pos">{position}</span>}
        </p>
        <p>{text}</p>
        {fix && (
          <p className="problem-fix">
            <span className="problem-fix-label">Fix:</span> {fix}
          </p>
        )}
      </div>
    </li>
  );
}
