import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { describeCounts, countSeverities, severityName, splitFix, SEVERITY_LABELS } from '../problems/diagnostic-severity';
import { lspSeverities, wordRange } from '../shaders/shader-labels';
import { CheckCircleIcon, SeverityIcon } from './ViewIcons';

/** The module's validation diagnostics, each at its word offset (a binary has no lines). */
export function ShaderProblemsTab({ module }: { module: ShaderInspectBytes }) {
  if (module.diagnostics.length === 0) {
    return (
      <div className="all-clean" data-testid="shader-problems-empty">
        <span className="all-clean-icon">
          <CheckCircleIcon size={28} />
        </span>
        <p className="all-clean-title">No problems found</p>
        <p className="muted">The module decodes cleanly and follows SPIR-V’s logical layout and id rules (not a full spirv-val).</p>
      </div>
    );
  }
  return (
    <div className="shader-stack">
      <p className="toolbar-status">{describeCounts(countSeverities(lspSeverities(module.diagnostics)))} · offsets count 32-bit words from the start of the module</p>
      <ul className="shader-problem-list" data-testid="shader-problems">
        {module.diagnostics.map((d, i) => {
          const sev = severityName(d.severity as 1 | 2 | 3 | 4 | undefined);
          const { text, fix } = splitFix(d.message);
          return (
            <li key={i} className={`shader-problem severity-${sev}`} data-testid="shader-problem" data-code={String(d.code ?? '')}>
              <SeverityIcon severity={sev} />
              <div className="shader-problem-body">
                <p className="shader-problem-title">
                  <span className="visually-hidden">{SEVERITY_LABELS[sev]}:</span>
                  <code className="diag-code">{String(d.code ?? '')}</code>
                  <span className="shader-problem-pos">{wordRange(d.range)}</span>
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
        })}
      </ul>
    </div>
  );
}
