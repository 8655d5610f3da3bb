// The file is saved before it is published, and only a save that is known to have landed counts.
// In VS Code for the Web files auto-save one second after an edit, and while that save runs VS Code
// answers `false` to ours (it is dropped, not queued) and writes the file a moment later. So a
// `false` with the document still dirty waits for this document's next save, for a bounded time;
// a document that is still dirty after it is refused, never published from unsaved text. vscode-free.

export interface SavableDocument {
  readonly isDirty: boolean;
  save(): PromiseLike<boolean>;
}

/** Resolves when the document is next saved, or after `ms`; `dispose` stops listening. */
export type NextSave = (ms: number) => { saved: Promise<void>; dispose(): void };

export const SAVE_WAIT_MS = 5_000;

export async function saveFirst(
  doc: SavableDocument,
  nextSave: NextSave,
  name: string,
  refused = 'Dashboard not published',
  again = 'publish again',
): Promise<void> {
  if (!doc.isDirty) return;
  // Listen before saving: the other save may land between our save's answer and the listener.
  const wait = nextSave(SAVE_WAIT_MS);
  try {
    if ((await doc.save()) || !doc.isDirty) return;
    await wait.saved;
  } finally {
    wait.dispose();
  }
  if (doc.isDirty)
    throw new Error(
      `${refused}: ${name} has changes that could not be saved. Save the file (Ctrl+S), then ${again}.`,
    );
}
