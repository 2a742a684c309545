import type { LayerSettingValues, SettingValue } from './setting-values';
import { typeInWords, type LayerSettingsDescription, type SettingDescription } from './setting-types';
import { defaultOf, effectiveValue } from './effective-settings';
import { sameSettingValue } from './setting-validation';
import { platformName } from './setting-platforms';
import { settingPrefix } from './settings-file-format';

/**
 * Documentation of a layer's settings from its manifest (the html and md exports, what vkconfig's
 * "export layer documentation" gives): every setting on every platform, with key, type, default,
 * choices, range, environment variable, platforms, status and dependence, and the value this
 * export carries where it differs from the default. Pure.
 */

const shown = (v: SettingValue | undefined): string =>
  v === undefined ? '' : Array.isArray(v) ? (v.length ? v.join(', ') : '(none)') : v === '' ? '(empty)' : String(v);

interface Fact {
  label: string;
  value: string;
  /** Render `value` as code. */
  code?: boolean;
}

function facts(description: LayerSettingsDescription, s: SettingDescription, values: LayerSettingValues): Fact[] {
  const out: Fact[] = [
    { label: 'Key', value: `${settingPrefix(description.layerName)}.${s.key}`, code: true },
    { label: 'Type', value: `${s.type} (${typeInWords(s.type)})` },
  ];
  const def = defaultOf(s);
  if (def !== undefined) out.push({ label: 'Default', value: shown(def), code: true });
  const value = effectiveValue(s, values);
  if (value !== undefined && def !== undefined && !sameSettingValue(s, value, def))
    out.push({ label: 'Value in this export', value: shown(value), code: true });
  if ((s.type === 'INT' || s.type === 'FLOAT') && (s.min !== undefined || s.max !== undefined))
    out.push({ label: 'Range', value: `${s.min ?? '…'} to ${s.max ?? '…'}${s.unit ? ` ${s.unit}` : ''}` });
  else if ((s.type === 'INT' || s.type === 'FLOAT') && s.unit) out.push({ label: 'Unit', value: s.unit });
  if (s.type === 'LIST' && s.list.length) out.push({ label: s.listOnly ? 'Values (only these)' : 'Suggested values', value: s.list.join(', '), code: true });
  if (s.env) out.push({ label: 'Environment variable', value: s.env, code: true });
  out.push({ label: 'Platforms', value: s.platforms.map(platformName).join(', ') || '(none)' });
  if (s.status !== 'STABLE') out.push({ label: 'Status', value: s.status.toLowerCase() });
  if (s.view !== 'STANDARD') out.push({ label: 'View', value: s.view.toLowerCase() });
  if (s.dependence && s.dependence.mode !== 'NONE' && s.dependence.conditions.length) {
    const parts = s.dependence.conditions.map((c) => `${c.key} = ${shown(c.value)}`);
    out.push({ label: s.dependence.mode === 'ALL' ? 'Requires all of' : 'Requires any of', value: parts.join('; ') });
  }
  if (s.url) out.push({ label: 'More', value: s.url });
  return out;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export function settingsDocumentHtml(description: LayerSettingsDescription, values: LayerSettingValues): string {
  const name = escapeHtml(description.layerName);
  const out = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${name} settings</title>`,
    '<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2rem .5rem;text-align:left;vertical-align:top}section{margin-left:calc(var(--depth)*1.5rem)}code{font-family:ui-monospace,monospace}</style>',
    '</head>',
    '<body>',
    `<h1>${name} settings</h1>`,
  ];
  const layer = description.layer;
  if (layer.description) out.push(`<p>${escapeHtml(layer.description)}</p>`);
  if (layer.introduction) for (const para of layer.introduction.split(/\n+/)) if (para.trim()) out.push(`<p>${escapeHtml(para)}</p>`);
  if (layer.url) out.push(`<p>More: <a href="${escapeHtml(layer.url)}">${escapeHtml(layer.url)}</a></p>`);
  out.push(
    `<p>In <code>vk_layer_settings.txt</code> each setting is one line <code>${escapeHtml(settingPrefix(description.layerName))}.&lt;key&gt; = &lt;value&gt;</code>; lists are comma-separated.</p>`,
  );
  if (!description.described) {
    out.push('<p>This layer has no settings description in its manifest.</p>');
    const given = Object.entries(values);
    if (given.length)
      out.push(
        '<h2>Values in this export</h2>',
        '<ul>',
        ...given.map(([k, v]) => `<li><code>${escapeHtml(`${settingPrefix(description.layerName)}.${k} = ${shown(v)}`)}</code></li>`),
        '</ul>',
      );
  }
  if (description.presets.length) {
    out.push('<h2>Presets</h2>', '<table>', '<thead><tr><th>Preset</th><th>Description</th><th>Values</th></tr></thead>', '<tbody>');
    for (const p of description.presets)
      out.push(
        `<tr><td>${escapeHtml(p.label)}</td><td>${escapeHtml(p.description)}</td><td>${Object.entries(p.values)
          .map(([k, v]) => `<code>${escapeHtml(k)} = ${escapeHtml(shown(v))}</code>`)
          .join('<br>')}</td></tr>`,
      );
    out.push('</tbody>', '</table>');
  }
  if (description.settings.length) out.push('<h2>Settings</h2>');
  const walk = (list: readonly SettingDescription[], depth: number) => {
    for (const s of list) {
      const h = Math.min(6, 3 + depth);
      out.push(`<section id="${escapeHtml(s.key)}" style="--depth:${depth}">`, `<h${h}>${escapeHtml(s.label)}</h${h}>`);
      if (s.description) out.push(`<p>${escapeHtml(s.description)}</p>`);
      if (s.detailed) out.push(`<p>${escapeHtml(s.detailed)}</p>`);
      if (s.type !== 'GROUP') {
        out.push('<table><tbody>');
        for (const f of facts(description, s, values))
          out.push(`<tr><th scope="row">${escapeHtml(f.label)}</th><td>${f.code ? `<code>${escapeHtml(f.value)}</code>` : escapeHtml(f.value)}</td></tr>`);
        out.push('</tbody></table>');
      }
      if ('options' in s) {
        out.push('<table>', '<thead><tr><th>Value</th><th>Label</th><th>Description</th><th>Platforms</th></tr></thead>', '<tbody>');
        for (const o of s.options)
          out.push(
            `<tr><td><code>${escapeHtml(o.key)}</code></td><td>${escapeHtml(o.label)}</td><td>${escapeHtml(o.description)}</td><td>${o.platforms.map(platformName).join(', ')}</td></tr>`,
          );
        out.push('</tbody>', '</table>');
      }
      out.push('</section>');
      walk(s.children, depth + 1);
    }
  };
  walk(description.settings, 0);
  out.push('<p><small>Written by Strata from the layer manifest.</small></p>', '</body>', '</html>');
  return `${out.join('\n')}\n`;
}

/** Markdown table cells: no line breaks, `|` escaped. */
const cell = (s: string) => s.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
const code = (s: string) => {
  const ticks = s.includes('`') ? '``' : '`';
  return `${ticks}${ticks === '``' ? ' ' : ''}${s}${ticks === '``' ? ' ' : ''}${ticks}`;
};

export function settingsDocumentMarkdown(description: LayerSettingsDescription, values: LayerSettingValues): string {
  const out = [`# ${description.layerName} settings`, ''];
  const layer = description.layer;
  if (layer.description) out.push(layer.description, '');
  if (layer.introduction)
    out.push(
      ...layer.introduction
        .split(/\n+/)
        .filter((p) => p.trim())
        .flatMap((p) => [p, '']),
    );
  if (layer.url) out.push(`More: <${layer.url}>`, '');
  out.push(`In \`vk_layer_settings.txt\` each setting is one line \`${settingPrefix(description.layerName)}.<key> = <value>\`; lists are comma-separated.`, '');
  if (!description.described) {
    out.push('This layer has no settings description in its manifest.', '');
    const given = Object.entries(values);
    if (given.length)
      out.push('## Values in this export', '', ...given.map(([k, v]) => `- ${code(`${settingPrefix(description.layerName)}.${k} = ${shown(v)}`)}`), '');
  }
  if (description.presets.length) {
    out.push('## Presets', '', '| Preset | Description | Values |', '|---|---|---|');
    for (const p of description.presets)
      out.push(
        `| ${cell(p.label)} | ${cell(p.description)} | ${Object.entries(p.values)
          .map(([k, v]) => code(cell(`${k} = ${shown(v)}`)))
          .join('<br>')} |`,
      );
    out.push('');
  }
  if (description.settings.length) out.push('## Settings', '');
  const walk = (list: readonly SettingDescription[], depth: number) => {
    for (const s of list) {
      out.push(`${'#'.repeat(Math.min(6, 3 + depth))} ${s.label}`, '');
      if (s.description) out.push(s.description, '');
      if (s.detailed) out.push(s.detailed, '');
      if (s.type !== 'GROUP') {
        out.push('| | |', '|---|---|');
        for (const f of facts(description, s, values)) out.push(`| ${cell(f.label)} | ${f.code ? code(cell(f.value)) : cell(f.value)} |`);
        out.push('');
      }
      if ('options' in s) {
        out.push('| Value | Label | Description | Platforms |', '|---|---|---|---|');
        for (const o of s.options)
          out.push(`| ${code(cell(o.key))} | ${cell(o.label)} | ${cell(o.description)} | ${o.platforms.map(platformName).join(', ')} |`);
        out.push('');
      }
      walk(s.children, depth + 1);
    }
  };
  walk(description.settings, 0);
  out.push('_Written by Strata from the layer manifest._');
  return `${out.join('\n')}\n`;
}
