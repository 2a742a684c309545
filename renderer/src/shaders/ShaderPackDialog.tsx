import { useState } from 'react';
import type { StrataError } from '../../../shared/errors/strata-error';
import type { ShaderPackResult } from '../../../shared/shader/shader-pack';
import { VBC_STAGES, type VbcStage } from '../../../shared/shader/vbc-enums';
import { formatBytes } from './file-base64';
import { packedFileName, STAGE_LABELS } from './shader-stages';
import { useShaders } from './shaders-store';
import { Dialog } from '../ui/Dialog';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import { ShaderProblemItem } from './ShaderProblemsTab';
import '../styles/apply.css';

/**
 * Pack VBC: one SPIR-V file per stage (vert, tesc, tese, geom, frag), packed by main (`shader.pack`,
 * docs/vbc.md "Mapping from SPIR-V"). A packed file opens in the inspector and can be downloaded
 * from the toolbar; a refusal (a stage that does not validate, stages that do not link) stays here
 * with its diagnostics, next to the files that caused it.
 */
export function ShaderPackDialog({ onClose }: { onClose: () => void }) {
  const pack = useShaders((s) => s.pack);
  const [files, setFiles] = useState<Partial<Record<VbcStage, File>>>({});
  const [name, setName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<ShaderPackResult | null>(null);
  const [error, setError] = useState<StrataError | null>(null);

  const chosen = VBC_STAGES.filter((s) => files[s]);
  const outputName = name ?? packedFileName(chosen.map((s) => files[s]!.name));

  const choose = (stage: VbcStage, file: File | undefined) => {
    setFiles((f) => {
      const next = { ...f };
      if (file) next[stage] = file;
      else delete next[stage];
      return next;
    });
    setRefused(null);
    setError(null);
  };

  const run = async () => {
    setBusy(true);
    setRefused(null);
    setError(null);
    const result = await pack(outputName.endsWith('.vbc') ? outputName : `${outputName}.vbc`, files);
    setBusy(false);
    if (result.status === 'error') setError(result.error);
    else if (result.status === 'ready' && !result.value.ok) setRefused(result.value);
    else onClose();
  };

  return (
    <Dialog
      title="Pack a VBC file"
      description={
        <p>
          Pick the SPIR-V module of each stage the file should hold. Strata derives the VBC reflection from them, checks that the stages link, and opens the
          result here.
        </p>
      }
      onClose={onClose}
      testId="shader-pack-dialog"
      wide
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void run()}
            disabled={chosen.length === 0 || busy}
            data-autofocus
            data-testid="shader-pack-run"
          >
            {busy ? 'Packing…' : 'Pack'}
          </button>
        </>
      }
    >
      <div className="pack-stages" role="group" aria-label="Stages">
        {VBC_STAGES.map((stage) => {
          const file = files[stage];
          const id = `pack-stage-${stage}`;
          return (
            <div className="pack-stage" key={stage}>
              <label className="pack-stage-label" htmlFor={id}>
                {STAGE_LABELS[stage]} <code>{stage}</code>
              </label>
              <input
                id={id}
                type="file"
                accept=".spv,.spirv,application/octet-stream"
                data-testid={`shader-pack-${stage}`}
                onChange={(e) => choose(stage, e.currentTarget.files?.[0])}
              />
              <span className="pack-stage-file muted">{file ? formatBytes(file.size) : 'none'}</span>
            </div>
          );
        })}
      </div>
      <label className="pack-output">
        <span>File name</span>
        <input
          className="filter-input"
          type="text"
          value={outputName}
          spellCheck={false}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="shader-pack-name"
        />
      </label>
      {error && <RequestErrorMessage title="Could not pack" error={error} onRetry={() => void run()} />}
      {refused && (
        <div className="pack-refused" role="alert" data-testid="shader-pack-refused">
          <p className="pack-refused-title">These stages do not pack into a VBC file:</p>
          <ul className="shader-problem-list">
            {refused.diagnostics.map((d, i) => (
              <ShaderProblemItem key={i} diagnostic={d} testId="shader-pack-problem" />
            ))}
          </ul>
        </div>
      )}
    </Dialog>
  );
}
