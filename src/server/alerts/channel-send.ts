import type { ChatRequest } from './chat-requests.ts';
import { postOutgoing } from '../lib/outgoing-http.ts';

/** How long one channel may take before it counts as failed. */
const CHANNEL_TIMEOUT_MS = 10_000;

/** How one channel took an alert: `error` says why it did not (HTTP status, SMTP answer). */
export interface ChannelResult { name: string; ok: boolean; error?: string }

/** Runs one channel's send, turning a failure into its result. */
export async function attempt(name: string, send: () => Promise<void>): Promise<ChannelResult> {
  try {
    await send();
    return { name, ok: true };
  } catch (err) {
    return { name, ok: false, error: (err as Error).message };
  }
}

/** POSTs one chat request under the outgoing-HTTP rules; anything but a 2xx is a failure. */
export async function postChat(request: ChatRequest): Promise<void> {
  const { status } = await postOutgoing(request.url, request.headers, JSON.stringify(request.body), CHANNEL_TIMEOUT_MS);
  if (status < 200 || status >= 300) throw new Error(`HTTP ${status}`);
}
