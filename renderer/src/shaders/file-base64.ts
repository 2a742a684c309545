/** FileReader.readAsDataURL's answer → the base64 that shader.inspectBytes takes; null if it is not a base64 data URL. */
export function base64FromDataUrl(url: string): string | null {
  const m = /^data:[^,]*;base64,([A-Za-z0-9+/]*={0,2})$/.exec(url);
  return m ? m[1]! : null;
}

/** "12.3 KiB": a size for people, in binary units like the file managers on Linux. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} byte${n === 1 ? '' : 's'}`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** Base64 (as shader.pack answers it) → bytes, for a Blob download. */
export function bytesFromBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
