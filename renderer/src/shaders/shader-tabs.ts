/** The Shaders panel's tabs, in order, and the WAI-ARIA APG tabs keyboard model (automatic activation). */
export type ShaderTab = 'summary' | 'interface' | 'bindings' | 'disassembly' | 'problems';

export const SHADER_TABS: readonly { id: ShaderTab; label: string }[] = [
  { id: 'summary', label: 'Summary' },
  { id: 'interface', label: 'Interface' },
  { id: 'bindings', label: 'Bindings' },
  { id: 'disassembly', label: 'Disassembly' },
  { id: 'problems', label: 'Problems' },
];

/** The tab index a key moves to from `index`, or null for keys the tab list does not handle. Arrows wrap. */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
