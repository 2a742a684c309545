import type { Diagnostic } from 'vscode-languageserver-types';
import { messageText, splitFix } from './diagnostic-severity';

/** A diagnostic's message, its fix, its code and where it is: the body of a problem row wherever problems are listed. */
export function ProblemBody({ diagnostic }: { diagnostic: Diagnostic }) {
  const { text, fix } = splitFix(messageText(diagnostic.message));
  return (
    <div className="problem-body">
      <p className="problem-message">{text}</p>
      {fix && (
        <p className="problem-fix">
          <span className="problem-fix-label">Fix:</span> {fix}
        </p>
      )}
      <p className="problem-meta">
        <code className="diag-code">{String(diagnostic.code ?? '')}</code>
        <span className="problem-position">
          Ln {diagnostic.range.start.line + 1}, Col {diagnostic.range.start.character + 1}
        </span>
      </p>
    </div>
  );
}
