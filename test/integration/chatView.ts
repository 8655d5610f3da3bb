// Reading the chat panel's page in the suites: what its webview shows, read back from its DOM
// (the page answers `inspect`).
import type { ChatPanel } from '../../src/chat/chatPanel';
import type { TranscriptView } from '../../src/shared/chatProtocol';
import { waitFor } from './harness';

/**
 * Waits until the page shows what `until` accepts and answers it; on a timeout the error carries
 * what the page showed last, which is what a failing chat test needs to be read.
 */
export async function chatView(
  panel: ChatPanel,
  until: (v: TranscriptView) => boolean,
  what: string,
  ms = 30_000,
): Promise<TranscriptView> {
  let last: TranscriptView | undefined;
  try {
    return await waitFor(
      what,
      async () => {
        last = await panel.inspect();
        return until(last) ? last : undefined;
      },
      ms,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}; the page showed ${JSON.stringify(last)}`, { cause: e });
  }
}
