import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { ShaderInspectBytes } from '../../../shared/shader/shader-inspect-bytes';
import { countSeverities } from '../problems/diagnostic-severity';
import { formatBytes } from '../shaders/file-base64';
import { lspSeverities } from '../shaders/shader-labels';
import { SHADER_TABS, tabKeyTarget, type ShaderTab } from '../shaders/shader-tabs';
import { useShaders } from '../stores/shaders-store';
import { Badge } from './Card';
import { PanelIcon } from './Icon';
import { LoadingLine } from './LoadingLine';
import { RequestErrorMessage } from './RequestErrorMessage';
import { DisassemblyView } from './DisassemblyView';
import { ShaderBindingsTab } from './ShaderBindingsTab';
import { ShaderInterfaceTab } from './ShaderInterfaceTab';
import { ShaderProblemsTab } from './ShaderProblemsTab';
import { ShaderSummaryTab } from './ShaderSummaryTab';
import { FileIcon } from './ViewIcons';
import '../styles/layers.css';
import '../styles/problems.css';
import '../styles/shaders.css';

/** Shaders: open (or drop) a SPIR-V module; main decodes it; tabs show its summary, interface, bindings, text and problems. */
export function ShadersView() {
  const file = useShaders((s) => s.file);
  const state = useShaders((s) => s.module);
  const open = useShaders((s) => s.open);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

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
        accept=".spv,.spirv,application/octet-stream"
        data-testid="shader-file-input"
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0];
          if (chosen) void open(chosen);
          // The same file can be chosen again (after it changed on disk).
          e.currentTarget.value = '';
        }}
      />
      {file === null ? (
        <DropZone onPick={pick} />
      ) : (
        <>
          <div className="toolbar shader-toolbar">
            <span className="shader-file" title={file.name} data-testid="shader-file-name">
              <FileIcon />
              <span className="shader-file-name">{file.name}</span>
              <span className="shader-file-size">{formatBytes(file.size)}</span>
            </span>
            {state.status === 'ready' && <ModuleBadge module={state.value} />}
            <span className="toolbar-spacer" />
            <span className="toolbar-status shader-drop-hint">Drop another file anywhere here, or</span>
            <button type="button" className="button" onClick={pick} data-testid="shader-open">
              Open…
            </button>
          </div>
          {state.status === 'error' ? (
            <RequestErrorMessage title={`Could not inspect ${file.name}`} error={state.error} onRetry={pick} />
          ) : state.status !== 'ready' ? (
            <LoadingLine text={`Decoding ${file.name}…`} />
          ) : state.value.summary === null ? (
            <NotSpirv module={state.value} />
          ) : (
            <ShaderTabs module={state.value} />
          )}
        </>
      )}
      {dragging && (
        <div className="shader-drop-overlay" aria-hidden="true">
          <span>Drop to inspect</span>
        </div>
      )}
    </div>
  );
}

function DropZone({ onPick }: { onPick: () => void }) {
  return (
    <div className="shader-dropzone" data-testid="shader-dropzone">
      <div className="shader-dropzone-icon">
        <PanelIcon panel="shaders" size={28} />
      </div>
      <p className="shader-dropzone-title">Drop a SPIR-V module here</p>
      <p className="muted">
        A <code>.spv</code> file from <code>glslangValidator -V</code>, <code>glslc</code>, <code>dxc -spirv</code> or <code>spirv-as</code>. It is decoded by Strata; nothing is
        uploaded anywhere else.
      </p>
      <button type="button" className="button button-primary" onClick={onPick} data-testid="shader-open">
        Open…
      </button>
    </div>
  );
}

function ModuleBadge({ module }: { module: ShaderInspectBytes }) {
  if (module.summary === null) return <Badge tone="error">Not SPIR-V</Badge>;
  const errors = countSeverities(lspSeverities(module.diagnostics)).error;
  return (
    <span className="shader-badges">
      <Badge tone="accent">SPIR-V {module.summary.version}</Badge>
      {module.reflection.entryPoints.map((e) => (
        <Badge tone="neutral" key={`${e.name}-${e.stage}`}>
          {e.stage}
        </Badge>
      ))}
      {errors ? <Badge tone="error">{errors === 1 ? '1 error' : `${errors} errors`}</Badge> : <Badge tone="ok">Valid layout</Badge>}
    </span>
  );
}

/** A file without a SPIR-V header: say what was found and what a module looks like. */
function NotSpirv({ module }: { module: ShaderInspectBytes }) {
  return (
    <div className="request-error shader-not-spirv" role="alert" data-testid="shader-not-spirv">
      <div className="request-error-text">
        <p className="request-error-title">{module.path} is not a SPIR-V module</p>
        {module.diagnostics.map((d, i) => (
          <p className="request-error-message" key={i}>
            {d.message}
          </p>
        ))}
        <p className="request-error-code">
          Expected a SPIR-V binary: a whole number of 32-bit words that starts with the magic number <code>0x07230203</code> (bytes <code>03 02 23 07</code> in a
          little-endian file), then the version, generator, bound and schema words.
        </p>
      </div>
    </div>
  );
}

function ShaderTabs({ module }: { module: ShaderInspectBytes }) {
  const tab = useShaders((s) => s.tab);
  const setTab = useShaders((s) => s.setTab);
  const tabs = useRef(new Map<ShaderTab, HTMLButtonElement>());
  const index = SHADER_TABS.findIndex((t) => t.id === tab);
  const errors = countSeverities(lspSeverities(module.diagnostics));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = tabKeyTarget(event.key, index, SHADER_TABS.length);
    if (target === null) return;
    event.preventDefault();
    const next = SHADER_TABS[target]!.id;
    setTab(next);
    tabs.current.get(next)?.focus();
  };

  const counts: Partial<Record<ShaderTab, number>> = {
    interface: module.reflection.entryPoints.reduce((n, e) => n + e.inputs.length + e.outputs.length, 0),
    bindings: module.reflection.descriptorBindings.length + module.reflection.pushConstants.length + module.reflection.specializationConstants.length,
    problems: module.diagnostics.length,
  };

  return (
    <div className="shader-tabs">
      <div role="tablist" aria-label="Module views" className="tablist" onKeyDown={onKeyDown}>
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
      <div role="tabpanel" id={`shader-tabpanel-${tab}`} aria-labelledby={`shader-tab-${tab}`} className="tabpanel" data-testid={`shader-tabpanel-${tab}`} tabIndex={tab === 'disassembly' ? -1 : 0}>
        {tab === 'summary' && <ShaderSummaryTab module={module} />}
        {tab === 'interface' && <ShaderInterfaceTab module={module} />}
        {tab === 'bindings' && <ShaderBindingsTab module={module} />}
        {tab === 'disassembly' && <DisassemblyView text={module.disassembly} name={module.path} />}
        {tab === 'problems' && <ShaderProblemsTab module={module} />}
      </div>
    </div>
  );
}
