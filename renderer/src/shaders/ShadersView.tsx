import { useId, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import type { VbcStage } from '../../../shared/shader/vbc-enums';
import { downloadBlob } from '../files/download-file';
import { countSeverities } from '../problems/diagnostic-severity';
import { bytesFromBase64, formatBytes } from './file-base64';
import { lspSeverities } from './shader-labels';
import { isVbcModule, moduleView, STAGE_LABELS, stagesOf } from './shader-stages';
import { SHADER_TABS, tabKeyTarget, type ShaderTab } from './shader-tabs';
import { useShaders, type PackedFile } from './shaders-store';
import { Badge } from '../ui/Card';
import { PanelIcon } from '../ui/Icon';
import { LoadingLine } from '../ui/LoadingLine';
import { RequestErrorMessage } from '../ui/RequestErrorMessage';
import { DisassemblyView } from './DisassemblyView';
import { ShaderBindingsTab } from './ShaderBindingsTab';
import { ShaderInterfaceTab } from './ShaderInterfaceTab';
import { ShaderPackDialog } from './ShaderPackDialog';
import { ShaderProblemsTab } from './ShaderProblemsTab';
import { ShaderSummaryTab } from './ShaderSummaryTab';
import { ShaderVbcSummaryTab } from './ShaderVbcSummaryTab';
import { FileIcon } from '../ui/ViewIcons';
import '../styles/layers.css';
import '../styles/problems.css';
import '../styles/shaders.css';

/**
 * Shaders: open (or drop) a SPIR-V module or a VBC file, or pack one from SPIR-V stages; main decodes
 * it; tabs show its summary, interface, bindings, text and problems (a VBC file's per stage).
 */
export function ShadersView() {
  const file = useShaders((s) => s.file);
  const state = useShaders((s) => s.module);
  const open = useShaders((s) => s.open);
  const packed = useShaders((s) => s.packed);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [packing, setPacking] = useState(false);

  const pick = () => input.current?.click();
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) void open(dropped);
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  return (
    <div
      className={`shaders-view${dragging ? ' is-dragging' : ''}`}
      onDragOver={onDragOver}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      data-testid="shaders-view"
    >
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        accept=".spv,.spirv,.vbc,application/octet-stream"
        data-testid="shader-file-input"
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0];
          if (chosen) void open(chosen);
          // The same file can be chosen again (after it changed on disk).
          e.currentTarget.value = '';
        }}
      />
      {file === null ? (
        <DropZone onPick={pick} onPack={() => setPacking(true)} />
      ) : (
        <>
          <div className="toolbar shader-toolbar">
            <span className="shader-file" title={file.name} data-testid="shader-file-name">
              <FileIcon />
              <span className="shader-file-name">{file.name}</span>
              <span className="shader-file-size">{formatBytes(file.size)}</span>
            </span>
            {state.status === 'ready' && <ModuleBadge module={state.value} />}
            {packed && packed.name === file.name && <DownloadLink file={packed} />}
            <span className="toolbar-spacer" />
            <span className="toolbar-status shader-drop-hint">Drop another file anywhere here, or</span>
            <button type="button" className="button" onClick={pick} data-testid="shader-open">
              Open…
            </button>
            <button type="button" className="button" onClick={() => setPacking(true)} data-testid="shader-pack-open">
              Pack VBC…
            </button>
          </div>
          {state.status === 'error' ? (
            <RequestErrorMessage title={`Could not inspect ${file.name}`} error={state.error} onRetry={pick} />
          ) : state.status !== 'ready' ? (
            <LoadingLine text={`Decoding ${file.name}…`} />
          ) : state.value.summary === null && !isVbcModule(state.value) ? (
            <NotSpirv module={state.value} />
          ) : (
            <ShaderTabs module={state.value} />
          )}
        </>
      )}
      {packing && <ShaderPackDialog onClose={() => setPacking(false)} />}
      {dragging && (
        <div className="shader-drop-overlay" aria-hidden="true">
          <span>Drop to inspect</span>
        </div>
      )}
    </div>
  );
}

function DropZone({ onPick, onPack }: { onPick: () => void; onPack: () => void }) {
  return (
    <div className="shader-dropzone" data-testid="shader-dropzone">
      <div className="shader-dropzone-icon">
        <PanelIcon panel="shaders" size={28} />
      </div>
      <p className="shader-dropzone-title">Drop a SPIR-V module or a VBC file here</p>
      <p className="muted">
        A <code>.spv</code> file from <code>glslangValidator -V</code>, <code>glslc</code>, <code>dxc -spirv</code> or <code>spirv-as</code>, or a{' '}
        <code>.vbc</code> file (Vega ByteCode). It is decoded by Strata; nothing is uploaded anywhere else.
      </p>
      <span className="shader-dropzone-actions">
        <button type="button" className="button button-primary" onClick={onPick} data-testid="shader-open">
          Open…
        </button>
        <button type="button" className="button" onClick={onPack} data-testid="shader-pack-open">
          Pack VBC…
        </button>
      </span>
    </div>
  );
}

/** The packed VBC file as a download: a Blob URL made on click, revoked after. */
function DownloadLink({ file }: { file: PackedFile }) {
  const save = () => downloadBlob(new Blob([bytesFromBase64(file.base64)], { type: 'application/octet-stream' }), file.name);
  return (
    <button
      type="button"
      className="button shader-download"
      onClick={save}
      title={`Save ${file.name}`}
      aria-label={`Download ${file.name}`}
      data-testid="shader-download"
    >
      Download
    </button>
  );
}

function ModuleBadge({ module }: { module: ShaderInspectBytes }) {
  const errors = countSeverities(lspSeverities(module.diagnostics)).error;
  const errorBadge = errors ? <Badge tone="error">{errors === 1 ? '1 error' : `${errors} errors`}</Badge> : <Badge tone="ok">Valid</Badge>;
  if (isVbcModule(module)) {
    return (
      <span className="shader-badges">
        <Badge tone="accent">VBC {module.vbc?.header?.version ?? '?'}</Badge>
        {stagesOf(module).map((s) => (
          <Badge tone="neutral" key={s}>
            {s}
          </Badge>
        ))}
        {errorBadge}
      </span>
    );
  }
  if (module.summary === null) return <Badge tone="error">Not SPIR-V</Badge>;
  return (
    <span className="shader-badges">
      <Badge tone="accent">SPIR-V {module.summary.version}</Badge>
      {module.reflection.entryPoints.map((e) => (
        <Badge tone="neutral" key={`${e.name}-${e.stage}`}>
          {e.stage}
        </Badge>
      ))}
      {errors ? errorBadge : <Badge tone="ok">Valid layout</Badge>}
    </span>
  );
}

/** A file without a SPIR-V header: say what was found and what a module looks like. */
function NotSpirv({ module }: { module: ShaderInspectBytes }) {
  return (
    <div className="request-error shader-not-spirv" role="alert" data-testid="shader-not-spirv">
      <div className="request-error-text">
        <p className="request-error-title">{module.path} is not a SPIR-V module or a VBC file</p>
        {module.diagnostics.map((d, i) => (
          <p className="request-error-message" key={i}>
            {d.message}
          </p>
        ))}
        <p className="request-error-code">
          Expected a SPIR-V binary: a whole number of 32-bit words that starts with the magic number <code>0x07230203</code> (bytes <code>03 02 23 07</code> in
          a little-endian file), then the version, generator, bound and schema words; or a VBC file, whose first bytes are <code>VBC</code>.
        </p>
      </div>
    </div>
  );
}

function ShaderTabs({ module }: { module: ShaderInspectBytes }) {
  const tab = useShaders((s) => s.tab);
  const setTab = useShaders((s) => s.setTab);
  const stage = useShaders((s) => s.stage);
  const setStage = useShaders((s) => s.setStage);
  const tabs = useRef(new Map<ShaderTab, HTMLButtonElement>());
  const index = SHADER_TABS.findIndex((t) => t.id === tab);
  const errors = countSeverities(lspSeverities(module.diagnostics));
  const vbc = isVbcModule(module);
  const view = useMemo(() => moduleView(module, stage), [module, stage]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = tabKeyTarget(event.key, index, SHADER_TABS.length);
    if (target === null) return;
    event.preventDefault();
    const next = SHADER_TABS[target]!.id;
    setTab(next);
    tabs.current.get(next)?.focus();
  };

  const counts: Partial<Record<ShaderTab, number>> = {
    interface: view.reflection.entryPoints.reduce((n, e) => n + e.inputs.length + e.outputs.length, 0),
    bindings: view.reflection.descriptorBindings.length + view.reflection.pushConstants.length + view.reflection.specializationConstants.length,
    problems: module.diagnostics.length,
  };
  const perStage = vbc && (tab === 'interface' || tab === 'bindings' || tab === 'disassembly');

  return (
    <div className="shader-tabs">
      <div role="tablist" aria-label={vbc ? 'File views' : 'Module views'} className="tablist" onKeyDown={onKeyDown}>
        {SHADER_TABS.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              if (el) tabs.current.set(t.id, el);
              else tabs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={`shader-tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls={`shader-tabpanel-${t.id}`}
            tabIndex={t.id === tab ? 0 : -1}
            className="tab"
            onClick={() => setTab(t.id)}
            data-testid={`shader-tab-${t.id}`}
          >
            {t.label}
            {counts[t.id] !== undefined && counts[t.id]! > 0 && (
              <span className={`tab-count${t.id === 'problems' && errors.error > 0 ? ' tab-count-error' : ''}`}>{counts[t.id]}</span>
            )}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`shader-tabpanel-${tab}`}
        aria-labelledby={`shader-tab-${tab}`}
        className="tabpanel"
        data-testid={`shader-tabpanel-${tab}`}
        tabIndex={tab === 'disassembly' ? -1 : 0}
      >
        {perStage && view.stage !== null && <StageSelector stages={stagesOf(module)} value={view.stage} onChange={setStage} />}
        {tab === 'summary' &&
          (vbc ? (
            <ShaderVbcSummaryTab
              module={module}
              onOpenStage={(s) => {
                setStage(s);
                setTab('disassembly');
              }}
            />
          ) : (
            <ShaderSummaryTab module={module} />
          ))}
        {perStage && view.stage === null ? (
          <p className="card-empty" data-testid="shader-no-stages">
            No stage’s bytecode could be read from this file; Problems says why.
          </p>
        ) : (
          <>
            {tab === 'interface' && <ShaderInterfaceTab module={view} />}
            {tab === 'bindings' && <ShaderBindingsTab module={view} />}
            {tab === 'disassembly' && (
              <DisassemblyView key={view.stage ?? ''} texts={view.texts} name={view.stage ? `${module.path} (${view.stage})` : module.path} />
            )}
          </>
        )}
        {tab === 'problems' && <ShaderProblemsTab module={module} />}
      </div>
    </div>
  );
}

/** A VBC file's stages as a segmented radio group: the Interface, Bindings and Disassembly tabs show the one picked. */
function StageSelector({ stages, value, onChange }: { stages: readonly VbcStage[]; value: VbcStage; onChange: (stage: VbcStage) => void }) {
  const group = useId();
  return (
    <fieldset className="shader-stage-selector" data-testid="shader-stage-selector">
      <legend className="shader-stage-legend">Stage</legend>
      <div className="segmented segmented-inline">
        {stages.map((s) => (
          <label className="segment" key={s} title={STAGE_LABELS[s]}>
            <input type="radio" name={`${group}-stage`} value={s} checked={value === s} onChange={() => onChange(s)} data-testid={`shader-stage-${s}`} />
            <span className="segment-face">
              {s} <span className="muted">· {STAGE_LABELS[s]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
