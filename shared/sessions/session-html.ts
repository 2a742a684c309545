import type { CaptureRecord, MessageRecord, SessionCounts, SessionFooter, SessionHeader } from './session-records';

/**
 * A session as one HTML file a user can attach to a bug report: no scripts, no style sheets or
 * fonts from elsewhere (a Content-Security-Policy of default-src 'none' says so to the browser),
 * every captured byte escaped. Links to the specification are plain anchors.
 *
 * Every value from the session goes through escapeHtml, numbers and enum fields included: a
 * session file is data (the store validates it on read, but the export does not rely on that).
 * tests/unit/session-html.test.ts fills every field with markup and checks none survives.
 */
export interface SessionReportInput {
  header: SessionHeader;
  footer: SessionFooter | null;
  counts: SessionCounts;
  messages: readonly MessageRecord[];
  lines: readonly CaptureRecord[];
  /** Lines left out of the report (kept in the session file). */
  linesOmitted: number;
  generatedAt: string;
}

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Only http(s) links become anchors; anything else (javascript:, data:) is shown as text. */
function link(url: string | null, label: string): string {
  return url && /^https?:\/\//.test(url) ? `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>` : escapeHtml(label);
}

function row(cells: readonly string[], tag = 'td'): string {
  return `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
}

function exitText(footer: SessionFooter | null): string {
  if (!footer) return 'no footer: Strata stopped before the application ended (the records up to then are complete)';
  const e = footer.exit;
  if (e.reason === 'failed-to-start') return `did not start: ${e.error ?? 'unknown error'}`;
  const how = e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`;
  return e.reason === 'exited' ? how : `${how} (${e.reason === 'timeout' ? 'timed out' : 'stopped from Strata'})`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#1b1f24;background:#fff}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code,pre{font:12px/1.35 ui-monospace,monospace}
pre{margin:0;white-space:pre-wrap;word-break:break-all}
.error{color:#b3261e;font-weight:600}.warning{color:#8a5a00;font-weight:600}
.lines td{border:none;padding:0 .5rem}.lines .t{color:#57606a;white-space:nowrap}.stderr{color:#8a5a00}.validation{color:#6639ba}
@media (prefers-color-scheme: dark){body{background:#0d1117;color:#e6edf3}th{background:#161b22}td,th{border-color:#30363d}a{color:#58a6ff}}
`;

export function renderSessionHtml(input: SessionReportInput): string {
  const { header, footer, counts } = input;
  const app = header.application;
  const title = `Strata session ${header.id}`;
  const summary = [
    ['Application', `<code>${escapeHtml([app.command, ...app.args].join(' '))}</code>`],
    ['Executable', escapeHtml(app.resolvedPath ?? 'not found on PATH')],
    ['Working folder', escapeHtml(app.cwd)],
    ['Profile', escapeHtml(header.profile?.name ?? 'none')],
    ['Started', escapeHtml(header.startedAt)],
    ['Duration', footer ? escapeHtml(`${(Number(footer.durationMs) / 1000).toFixed(3)} s`) : 'unknown'],
    ['Exit', escapeHtml(exitText(footer))],
    ['Loader debug', escapeHtml(header.loaderDebug ?? 'off')],
    ['Validation messages', escapeHtml(`${header.validationRouting.mode}${header.validationRouting.note ? ` — ${header.validationRouting.note}` : ''}`)],
    ['Strata', escapeHtml(header.strataVersion)],
  ];
  const sev = ['error', 'warning', 'info', 'perf', 'debug', 'verbose'] as const;
  const chain = header.chain
    ? `<ol>${header.chain.chain.map((e) => `<li><code>${escapeHtml(e.name)}</code> (${escapeHtml(e.type)}) — ${escapeHtml(e.reasons.map((r) => r.message).join('; '))}</li>`).join('')}</ol>` +
      (header.chain.excluded.length
        ? `<p>Left out:</p><ul>${header.chain.excluded.map((e) => `<li><code>${escapeHtml(e.name)}</code> — ${escapeHtml(e.reasons.map((r) => r.message).join('; '))}</li>`).join('')}</ul>`
        : '')
    : `<p>${escapeHtml(header.chainError ?? 'not predicted')}</p>`;
  const env = [
    ...Object.entries(header.environment.set).map(([k, v]) => row([`<code>${escapeHtml(k)}</code>`, `<code>${escapeHtml(v)}</code>`, 'set for this launch'])),
    ...header.environment.unset.map((k) => row([`<code>${escapeHtml(k)}</code>`, '', 'removed for this launch'])),
    ...Object.entries(header.environment.inherited).map(([k, v]) => row([`<code>${escapeHtml(k)}</code>`, `<code>${escapeHtml(v)}</code>`, 'inherited'])),
  ];
  const messages = input.messages.map((m) =>
    row([
      `<span class="${escapeHtml(m.severity)}">${escapeHtml(m.severity)}</span>`,
      link(m.specUrl, m.vuid) + (m.specText ? `<br><small>${escapeHtml(m.specText)}</small>` : ''),
      m.objects
        .map((o) => `${escapeHtml(o.typeName ?? String(o.type))} <code>${escapeHtml(o.handle)}</code>${o.name ? ` “${escapeHtml(o.name)}”` : ''}`)
        .join('<br>'),
      `<pre>${escapeHtml(m.text)}</pre>`,
    ]),
  );
  const lines = input.lines
    .filter((r) => r.kind === 'line')
    .map(
      (r) =>
        `<tr class="${escapeHtml(r.stream)}"><td class="t">${escapeHtml((Number(r.t) / 1000).toFixed(3))}</td><td>${escapeHtml(r.stream)}</td><td><pre>${escapeHtml(r.text)}</pre></td></tr>`,
    );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="generator" content="Strata ${escapeHtml(header.strataVersion)}">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
<table>${summary.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('\n')}</table>
<h2>Counts</h2>
<table>${row(['', ...sev], 'th')}${row(['Validation messages', ...sev.map((s) => escapeHtml(counts.messages[s]))])}${row(['Loader lines', ...sev.map((s) => escapeHtml(counts.loader[s]))])}</table>
<table>${row(['Lines', 'stdout', 'stderr', 'validation'], 'th')}${row(['', escapeHtml(counts.lines.stdout), escapeHtml(counts.lines.stderr), escapeHtml(counts.lines.validation)])}</table>
<h2>Predicted layer chain</h2>
${chain}
<h2>Validation messages (${input.messages.length})</h2>
${messages.length ? `<table>${row(['Severity', 'Message id', 'Objects', 'Text'], 'th')}${messages.join('\n')}</table>` : '<p>None.</p>'}
<h2>Environment</h2>
<table>${row(['Variable', 'Value', ''], 'th')}${env.join('\n')}</table>
${header.notes.length ? `<h2>Notes</h2><ul>${header.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : ''}
<h2>Output</h2>
<table class="lines">${lines.join('\n')}</table>
${input.linesOmitted > 0 ? `<p>${escapeHtml(input.linesOmitted)} more lines are in the session file (export JSON for all of them).</p>` : ''}
<p><small>Generated by Strata at ${escapeHtml(input.generatedAt)}.</small></p>
</body></html>
`;
}
