/**
 * Offers a file download through a Blob URL: the browser host's "save dialog", and Electron's too
 * (it asks where to save). No remote content, no inline script: fits the CSP.
 */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Text as a file download (JSON unless `type` says otherwise). */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  downloadBlob(new Blob([text], { type }), fileName);
}
