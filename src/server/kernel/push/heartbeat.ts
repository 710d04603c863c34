/**
 * Spec 4: after 59 s of silence the browser sends a heartbeat and closes the socket when no answer
 * comes within 59 s. It may send the bare word or a JSON message; the answer takes the same form.
 * Anything else the browser sends is not a heartbeat and gets no answer.
 */
export function heartbeatReply(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === 'ping') return 'pong';
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const message = JSON.parse(trimmed) as { type?: unknown } | null;
    return message?.type === 'ping' ? JSON.stringify({ type: 'pong' }) : undefined;
  } catch {
    return undefined;
  }
}
