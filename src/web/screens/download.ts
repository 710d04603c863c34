/** Hands a file the server answered to the browser, saved under the given name. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked after the click has been handled: some browsers read the URL asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
