/**
 * The chain diagram as files: a stand-alone SVG, and a PNG drawn from that SVG through a canvas. The
 * theme's colours live in CSS, so they are copied onto each element as presentation attributes (not
 * style attributes, which the CSP would refuse); the PNG's image is a data: URL, the one image source
 * besides 'self' the CSP allows.
 */
import { downloadBlob } from '../files/download-file';

const SVG_PRESENTATION = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'letter-spacing',
] as const;

export function standaloneSvg(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const live = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  live.forEach((el, i) => {
    const target = copies[i];
    if (!target || el.tagName === 'title') return;
    const style = getComputedStyle(el);
    for (const p of SVG_PRESENTATION) {
      const v = style.getPropertyValue(p);
      if (v) target.setAttribute(p, v);
    }
  });
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', getComputedStyle(svg.closest('.chain-canvas') ?? svg).backgroundColor || '#ffffff');
  copy.insertBefore(background, copy.firstChild);
  copy.removeAttribute('class');
  copy.removeAttribute('data-testid');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

export function downloadSvg(svg: SVGSVGElement, fileName: string) {
  downloadBlob(new Blob([standaloneSvg(svg)], { type: 'image/svg+xml' }), fileName);
}

/** The diagram at `scale` × its size (2: sharp on a high-density screen), as a PNG download. */
export async function downloadPng(svg: SVGSVGElement, fileName: string, scale = 2): Promise<void> {
  const text = standaloneSvg(svg);
  const width = Number(svg.getAttribute('width')) || svg.viewBox.baseVal.width;
  const height = Number(svg.getAttribute('height')) || svg.viewBox.baseVal.height;
  const image = new Image();
  image.decoding = 'async';
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gives no 2D canvas');
  ctx.scale(scale, scale);
  ctx.drawImage(image, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the canvas could not be turned into a PNG');
  downloadBlob(blob, fileName);
}
