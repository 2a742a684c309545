import { forwardRef } from 'react';
import type { LayerChain } from '../../../shared/loader/chain';
import { chainSentence, failureText, fitText, layoutChain, reasonSummary, type DeviceLabel, type DiagramNode, type DriverLabel } from './chain-layout';

const BADGE_W = 68;

function LayerNode({ node, entry }: { node: DiagramNode; entry: LayerChain['chain'][number] }) {
  const summary = reasonSummary(entry.reasons);
  const { x, y, width, height } = node;
  const reason = summary.moreLabel ? `${fitText(summary.first, 62)}  ${summary.moreLabel}` : fitText(summary.first, 70);
  return (
    <g className={`chain-node chain-node-layer chain-node-${entry.type}`} data-testid="chain-node" data-layer={entry.name} data-type={entry.type}>
      <title>{`${entry.name} (${entry.type})\n${summary.full}\n${entry.manifest}`}</title>
      <rect className="chain-box" x={x} y={y} width={width} height={height} rx={9} />
      <rect className="chain-stripe" x={x} y={y} width={4} height={height} rx={2} />
      <circle className="chain-index" cx={x + 26} cy={y + height / 2} r={12} />
      <text className="chain-index-text" x={x + 26} y={y + height / 2 + 4} textAnchor="middle">
        {node.index + 1}
      </text>
      <text className="chain-name" x={x + 48} y={y + 25}>
        {fitText(entry.name, 46)}
      </text>
      <text className="chain-reason" x={x + 48} y={y + 44}>
        {reason}
      </text>
      <rect className="chain-badge" x={x + width - BADGE_W - 12} y={y + 12} width={BADGE_W} height={18} rx={9} />
      <text className="chain-badge-text" x={x + width - BADGE_W / 2 - 12} y={y + 25} textAnchor="middle">
        {entry.type}
      </text>
    </g>
  );
}

function TerminalNode({ node, title, subtitle, className, hover }: { node: DiagramNode; title: string; subtitle: string; className: string; hover?: string }) {
  const { x, y, width, height } = node;
  return (
    <g className={`chain-node ${className}`} data-testid={`chain-${node.kind}`}>
      {hover && <title>{hover}</title>}
      <rect className="chain-box" x={x} y={y} width={width} height={height} rx={node.kind === 'driver' || node.kind === 'device' ? 8 : 23} />
      <text className="chain-terminal-title" x={x + width / 2} y={y + (node.kind === 'driver' || node.kind === 'device' ? 18 : 20)} textAnchor="middle">
        {title}
      </text>
      <text className="chain-terminal-sub" x={x + width / 2} y={y + (node.kind === 'driver' || node.kind === 'device' ? 33 : 36)} textAnchor="middle">
        {subtitle}
      </text>
    </g>
  );
}

/** The effective instance layer chain as an SVG diagram: application → layers in order → loader → drivers → physical devices. */
export const ChainDiagram = forwardRef<
  SVGSVGElement,
  { chain: LayerChain; drivers: readonly DriverLabel[]; apiVersion: string; devices?: readonly DeviceLabel[] }
>(function ChainDiagram({ chain, drivers, apiVersion, devices = [] }, ref) {
  const failed = chain.result !== 'VK_SUCCESS';
  const layout = layoutChain(chain.chain.length, drivers.length, { failed, devices: devices.map((d) => d.driver) });
  const label = `${chainSentence(
    chain.chain.map((l) => l.name),
    drivers.length,
    failed,
    chain.result,
  )}${!failed && devices.length ? ` → ${devices.length === 1 ? '1 physical device' : `${devices.length} physical devices`}` : ''}`;
  return (
    <svg
      ref={ref}
      className="chain-diagram"
      data-testid="chain-diagram"
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      width={layout.width}
      height={layout.height}
      role="img"
      aria-label={label}
      fontFamily="system-ui, sans-serif"
    >
      <defs>
        <marker id="chain-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path className="chain-arrow-head" d="M0 1 9 5 0 9Z" />
        </marker>
      </defs>
      {layout.edges.map((e) => (
        <path
          key={`${e.from}>${e.to}`}
          className={`chain-edge${e.to.startsWith('driver') || e.to.startsWith('device') ? ' chain-edge-driver' : ''}`}
          d={e.d}
          fill="none"
          markerEnd="url(#chain-arrow)"
        />
      ))}
      {layout.nodes.map((node) => {
        switch (node.kind) {
          case 'application':
            return <TerminalNode key={node.key} node={node} className="chain-node-app" title="Application" subtitle={`vkCreateInstance · API ${apiVersion}`} />;
          case 'layer':
            return <LayerNode key={node.key} node={node} entry={chain.chain[node.index]!} />;
          case 'loader':
            return (
              <TerminalNode
                key={node.key}
                node={node}
                className={`chain-node-loader${failed ? ' chain-node-failed' : ''}`}
                title="Vulkan loader"
                subtitle={
                  failed
                    ? `${failureText(chain.result)}: no instance is created`
                    : `rules of loader ${chain.rulesVersion} · ${chain.chain.length === 1 ? '1 layer' : `${chain.chain.length} layers`} above`
                }
              />
            );
          case 'driver': {
            const d = drivers[node.index]!;
            return (
              <TerminalNode
                key={node.key}
                node={node}
                className="chain-node-driver"
                title={fitText(d.label, 22)}
                subtitle="driver (ICD)"
                hover={`${d.label}\n${d.manifest}`}
              />
            );
          }
          case 'device': {
            const d = devices[node.index]!;
            return (
              <TerminalNode key={node.key} node={node} className="chain-node-device" title={fitText(d.label, 24)} subtitle="physical device" hover={d.hover} />
            );
          }
        }
      })}
    </svg>
  );
});
