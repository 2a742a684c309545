import type { StrataError } from '../../../shared/errors/strata-error';
import { draftChanges, LAYER_CONTROL_LABELS } from '../../../shared/configurator/layer-draft';
import type { PreviewFile } from '../../../shared/override/override-preview';
import { conflictDiff, useApply } from './apply-store';
import { useDraft } from './draft-store';
import { settingChanges, settingValueText } from './setting-changes';
import { DiffText, FileDiff } from '../ui/DiffView';
import { Dialog } from '../ui/Dialog';
import '../styles/apply.css';

const ACTION_WORDS: Record<PreviewFile['action'], string> = {
  create: 'created',
  replace: 'replaced',
  delete: 'deleted',
  restore: 'restored to the file that was there before Strata',
  unchanged: 'unchanged',
};

const ROLE_WORDS: Record<PreviewFile['role'], string> = {
  override: 'Override layer',
  settings: 'Layer settings',
};

function ChangeSummary() {
  const draft = useDraft((s) => s.draft);
  const installed = useDraft((s) => s.installed);
  if (!draft) return null;
  const { states, reordered } = draftChanges(draft, installed);
  const settings = settingChanges(installed?.settings, draft.config.settings);
  if (states.length === 0 && !reordered && settings.length === 0) return null;
  return (
    <ul className="apply-changes" data-testid="apply-changes">
      {states.map((c) => (
        <li key={c.name}>
          <code>{c.name}</code>: {LAYER_CONTROL_LABELS[c.from]} → <strong>{LAYER_CONTROL_LABELS[c.to]}</strong>
        </li>
      ))}
      {reordered && <li>The order of the layers that are On changed.</li>}
      {settings.map((c) => (
        <li key={`${c.layer}:${c.key}`} data-testid="apply-setting-change">
          <code>{c.layer}</code> setting <code>{c.key}</code>: {settingValueText(c.from)} → <strong>{settingValueText(c.to)}</strong>
        </li>
      ))}
    </ul>
  );
}

function PreviewFileSection({ file }: { file: PreviewFile }) {
  return (
    <section
      className={`apply-file${file.needsForce ? ' is-conflict' : ''}`}
      data-testid="apply-file"
      data-path={file.path}
      data-action={file.action}
      aria-label={`${ROLE_WORDS[file.role]}: ${file.path}`}
    >
      <header className="apply-file-header">
        <span className="apply-file-role">{ROLE_WORDS[file.role]}</span>
        <code className="apply-file-path">{file.path}</code>
        <span className={`apply-file-action action-${file.action}`}>{ACTION_WORDS[file.action]}</span>
      </header>
      {file.registeredIn && (
        <p className="apply-registered muted" data-testid="apply-registered">
          Registered in <code>{file.registeredIn}</code>
          {file.registeredIn.startsWith('HKLM')
            ? ', which every application reads, elevated or not.'
            : ': applications that run elevated read only HKLM and do not see it.'}
        </p>
      )}
      {file.conflict && (
        <p className="apply-conflict" role="note" data-testid="apply-conflict">
          {file.conflict}
        </p>
      )}
      {file.action !== 'unchanged' && <FileDiff path={file.path} before={file.before} after={file.after} testId="apply-diff" />}
      {file.after !== null && file.action !== 'unchanged' && (
        <details className="apply-full">
          <summary>The whole file after</summary>
          <pre className="apply-full-text" data-testid="apply-new-text" tabIndex={0}>
            {file.after}
          </pre>
        </details>
      )}
    </section>
  );
}

function ErrorBody({ error }: { error: StrataError }) {
  const diff = conflictDiff(error);
  return (
    <div className="apply-error" data-testid="apply-error" data-code={error.code}>
      <p className="apply-error-untouched">Nothing was written: the files are as they were.</p>
      {error.where && (
        <p>
          Where: <code>{error.where}</code>
        </p>
      )}
      {diff ? (
        <>
          <p className="apply-error-fix">
            <strong>Fix:</strong> look at the difference below; choose Overwrite to replace the file anyway (a copy is kept, and “Disable Strata’s override”
            puts a file Strata did not write back).
          </p>
          <DiffText diff={diff} label="The file on disk compared with what Strata would write" testId="apply-error-diff" />
        </>
      ) : (
        error.fix && (
          <p className="apply-error-fix">
            <strong>Fix:</strong> {error.fix}
          </p>
        )
      )}
      <p className="muted">
        Error code <code>{error.code}</code>
      </p>
    </div>
  );
}

/** The dialogs of Apply and "Disable Strata's override" (apply-store.ts), one at a time. */
export function ApplyDialogs() {
  const dialog = useApply((s) => s.dialog);
  const { close, apply, remove, openApply } = useApply.getState();

  switch (dialog.kind) {
    case 'closed':
      return null;
    case 'preview': {
      const p = dialog.preview;
      const force = p?.needsForce ?? false;
      const nothing = p !== null && p.files.every((f) => f.action === 'unchanged');
      return (
        <Dialog
          title="Apply the draft"
          testId="apply-dialog"
          wide
          onClose={close}
          focusKey={p ? 'ready' : 'loading'}
          description={
            <p>
              {p
                ? nothing
                  ? 'Nothing on disk changes.'
                  : 'These files change when you apply. Nothing is written before you press the button.'
                : dialog.error
                  ? 'Strata could not work out what would change.'
                  : 'Working out what changes…'}
            </p>
          }
          actions={
            <>
              <button type="button" className="button" onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className={`button ${force ? 'button-danger' : 'button-primary'}`}
                data-autofocus
                disabled={!p || dialog.busy || nothing}
                aria-busy={dialog.busy}
                data-testid="apply-confirm"
                onClick={() => void apply(force)}
              >
                {dialog.busy && p ? 'Applying…' : force ? 'Overwrite' : 'Apply'}
              </button>
            </>
          }
        >
          <ChangeSummary />
          {dialog.error && (
            <>
              <ErrorBody error={dialog.error} />
              <button type="button" className="button" onClick={() => void openApply()}>
                Try again
              </button>
            </>
          )}
          {p?.files.map((f) => (
            <PreviewFileSection key={`${f.role}:${f.path}`} file={f} />
          ))}
        </Dialog>
      );
    }
    case 'confirm-remove':
      return (
        <Dialog
          title="Disable Strata’s override?"
          tone="danger"
          testId="remove-dialog"
          onClose={close}
          description={
            <p>
              Strata removes the override layer it wrote and puts back the override that was there before Strata, if there was one. Every application then gets
              the layers it asks for, and your draft starts again from what is left.
            </p>
          }
          actions={
            <>
              <button type="button" className="button" data-autofocus onClick={close}>
                Cancel
              </button>
              <button type="button" className="button button-danger" disabled={dialog.busy} data-testid="remove-confirm" onClick={() => void remove(false)}>
                {dialog.busy ? 'Disabling…' : 'Disable override'}
              </button>
            </>
          }
        />
      );
    case 'error': {
      const canForce = dialog.error.code === 'override/not-strata-file';
      const title = dialog.action === 'apply' ? 'Could not apply' : 'Could not disable Strata’s override';
      return (
        <Dialog
          title={title}
          tone="danger"
          wide={canForce}
          testId="apply-error-dialog"
          onClose={close}
          description={<p className="apply-error-message">{dialog.error.message}</p>}
          actions={
            <>
              <button type="button" className="button" data-autofocus onClick={close}>
                Close
              </button>
              {canForce && (
                <button
                  type="button"
                  className="button button-danger"
                  disabled={dialog.busy}
                  data-testid="apply-force"
                  onClick={() => void (dialog.action === 'apply' ? apply(true) : remove(true))}
                >
                  {dialog.action === 'apply' ? 'Overwrite' : 'Remove anyway'}
                </button>
              )}
            </>
          }
        >
          <ErrorBody error={dialog.error} />
        </Dialog>
      );
    }
  }
}
