import { Fragment, useId, useState } from 'react';
import type { ExtensionProperties } from '../../../shared/vulkan/loader-info';
import { filterExtensions } from './device-labels';

/** Long names wrap after an underscore, never inside a word; <wbr> adds nothing to copied text. */
function ExtensionName({ name }: { name: string }) {
  const parts = name.split(/(?<=_)/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}

/** A device's extensions: a count that expands into a list with a filter. */
export function ExtensionList({ extensions, owner }: { extensions: readonly ExtensionProperties[]; owner: string }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const id = useId();
  const shown = open ? filterExtensions(extensions, query) : [];

  return (
    <div className="ext" data-testid="device-extensions">
      <button type="button" className="ext-toggle" aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => setOpen(!open)}>
        <svg className="ext-chevron" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
          <path d="M4 2.5 7.5 6 4 9.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="ext-toggle-label">Device extensions</span>
        <span className="ext-count" data-testid="extension-count">
          {extensions.length}
        </span>
      </button>
      <div className="ext-panel" id={`${id}-panel`} hidden={!open}>
        {open && (
          <>
            <div className="ext-tools">
              <label className="ext-filter">
                <span className="visually-hidden">Filter the extensions of {owner}</span>
                <svg className="ext-filter-icon" width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
                  <path d="m15.5 15.5 5 5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
                <input
                  type="search"
                  value={query}
                  placeholder="Filter extensions"
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(e) => setQuery(e.target.value)}
                />
              </label>
              <span className="ext-shown" role="status">
                {shown.length === extensions.length ? `${extensions.length} extensions` : `${shown.length} of ${extensions.length} match`}
              </span>
            </div>
            {shown.length === 0 ? (
              <p className="card-empty ext-none">No extension name contains “{query.trim()}”.</p>
            ) : (
              <ul className="ext-list" aria-label={`Extensions of ${owner}`}>
                {shown.map((e) => (
                  <li key={e.name}>
                    <code>
                      <ExtensionName name={e.name} />
                    </code>
                    <span className="ext-rev" title="specVersion">
                      rev {e.specVersion}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </div>
  );
}
