/**
 * Codes as a scanner types them: one per line; commas, semicolons or spaces separate too, so a list
 * pasted from a spreadsheet or a message works as well. The server reads a field of codes so, and a
 * browser widget that shows the codes scanned so far reads it the same way.
 */
export function splitCodes(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return text
    .split(/[\s,;，；、]+/u)
    .map((s) => s.trim())
    .filter(Boolean);
}
