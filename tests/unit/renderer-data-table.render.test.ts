// DataTable (renderer/src/ui/DataTable.tsx) rendered to static markup with react-dom/server: the
// exact `.table` markup the views wrote by hand, which the e2e tests and the CSS select by.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DataTable, type DataColumn, type DataTableProps } from '../../renderer/src/ui/DataTable';

interface Binding {
  set: number;
  binding: number;
  name: string;
  kind: string;
}

const columns: DataColumn<Binding>[] = [
  { id: 'set', header: 'Set', width: 'fit', align: 'end', cell: (b) => b.set },
  { id: 'name', header: 'Name', rowHeader: true, cell: (b) => createElement('code', null, b.name) },
  { id: 'kind', header: 'Kind', headerClassName: 'col-fit', cellClassName: (b) => `kind-${b.kind}`, cell: (b) => b.kind },
];

const rows: Binding[] = [
  { set: 0, binding: 1, name: 'ubo', kind: 'uniform' },
  { set: 2, binding: 0, name: 'tex', kind: 'sampler' },
];

const render = <Row>(props: DataTableProps<Row>) => renderToStaticMarkup(createElement(DataTable<Row>, props));

test('headers are <th scope="col"> in column order, with the width and alignment classes', () => {
  const html = render<Binding>({ columns, rows, rowKey: (b) => `${b.set}.${b.binding}`, label: 'Descriptor bindings', testId: 'bindings' });
  assert.ok(
    html.includes('<thead><tr><th scope="col" class="col-fit num">Set</th><th scope="col">Name</th><th scope="col" class="col-fit">Kind</th></tr></thead>'),
    html,
  );
});

test('each row renders its cells in order; the row-header column is <th scope="row">; cell classes may depend on the row', () => {
  const html = render<Binding>({ columns, rows, rowKey: (b) => `${b.set}.${b.binding}`, label: 'Descriptor bindings' });
  assert.ok(
    html.includes(
      '<tbody>' +
        '<tr><td class="col-fit num">0</td><th scope="row"><code>ubo</code></th><td class="kind-uniform">uniform</td></tr>' +
        '<tr><td class="col-fit num">2</td><th scope="row"><code>tex</code></th><td class="kind-sampler">sampler</td></tr>' +
        '</tbody>',
    ),
    html,
  );
});

test('the table carries its classes, test id and accessible name, inside the scroll wrapper by default', () => {
  const html = render<Binding>({
    columns,
    rows,
    rowKey: (b) => b.name,
    label: 'Descriptor bindings',
    testId: 'shader-bindings',
    dense: true,
    className: 'member-table',
  });
  assert.match(
    html,
    /^<div class="table-scroll"><table class="table table-dense member-table" data-testid="shader-bindings" aria-label="Descriptor bindings"><thead>/,
  );
  assert.ok(html.endsWith('</tbody></table></div>'), html);
});

test('scroll=false drops the wrapper; scrollClassName adds to it; a caption is for screen readers only', () => {
  const bare = render<Binding>({ columns, rows, rowKey: (b) => b.name, caption: 'Bindings of set 0', scroll: false });
  assert.match(bare, /^<table class="table"><caption class="visually-hidden">Bindings of set 0<\/caption><thead>/);
  assert.ok(!bare.includes('aria-label'), 'a caption names the table; no aria-label beside it');
  const wrapped = render<Binding>({ columns, rows, rowKey: (b) => b.name, label: 'Drivers', scrollClassName: 'drivers-table-scroll' });
  assert.match(wrapped, /^<div class="table-scroll drivers-table-scroll"><table /);
});

test('row and cell attributes reach the <tr> and <td> (the data-* hooks e2e tests select by, a class, a title)', () => {
  const html = render<Binding>({
    columns: [
      {
        id: 'result',
        header: 'Result',
        cell: (b: Binding) => b.kind,
        cellAttributes: (b: Binding) => ({ 'data-testid': 'driver-result', title: `binding ${b.binding}` }),
      },
    ],
    rows,
    rowKey: (b) => b.name,
    rowAttributes: (b) => ({ 'data-testid': 'shader-binding', 'data-set': b.set, className: b.set ? 'is-missing' : undefined }),
    label: 'Bindings',
  });
  assert.ok(html.includes('<tr data-testid="shader-binding" data-set="0"><td data-testid="driver-result" title="binding 1">uniform</td></tr>'), html);
  assert.ok(
    html.includes('<tr data-testid="shader-binding" data-set="2" class="is-missing"><td data-testid="driver-result" title="binding 0">sampler</td></tr>'),
    html,
  );
});

test('no rows: the empty text as a card-empty paragraph instead of a table ("None." unless told)', () => {
  assert.equal(render<Binding>({ columns, rows: [], rowKey: (b) => b.name, label: 'Bindings' }), '<p class="card-empty">None.</p>');
  assert.equal(
    render<Binding>({ columns, rows: [], rowKey: (b) => b.name, label: 'Drivers', empty: 'No driver manifests were found.', emptyTestId: 'drivers-empty' }),
    '<p class="card-empty" data-testid="drivers-empty">No driver manifests were found.</p>',
  );
});

test('columns without headers give a table with no <thead> (a table of row headers and values)', () => {
  const html = render<[string, number]>({
    columns: [
      { id: 'what', rowHeader: true, cell: (r: [string, number]) => r[0] },
      { id: 'count', cell: (r: [string, number]) => r[1] },
    ],
    rows: [
      ['Errors', 3],
      ['Warnings', 0],
    ],
    rowKey: (r) => r[0],
    label: 'Counts of session A',
    scroll: false,
  });
  assert.equal(
    html,
    '<table class="table" aria-label="Counts of session A"><tbody><tr><th scope="row">Errors</th><td>3</td></tr><tr><th scope="row">Warnings</th><td>0</td></tr></tbody></table>',
  );
});

test('nothing focusable is added: no tabindex anywhere', () => {
  const html = render<Binding>({ columns, rows, rowKey: (b) => b.name, label: 'Bindings' });
  assert.ok(!/tabindex/i.test(html), html);
});
