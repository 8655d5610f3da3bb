// The dashboards commands' argument objects (every command takes one, so tests need no UI) and a
// file's publish history entry.
import type * as vscode from 'vscode';

export interface PublishHistoryEntry {
  time: string;
  /** Absent when the service's answer did not say (the publish still succeeded). */
  versionNumber?: number;
  /** The profile that published. */
  who: string;
  deploymentId: number;
  /** The deployment's name, when it could be read at publish time. */
  deploymentName?: string;
  status: string;
  publicId?: string;
}

export interface EditArgs {
  deploymentId?: number;
  workbookId?: number;
  /** Where to write the file (a path or file URI); otherwise a save dialog asks. */
  target?: string | vscode.Uri;
  /** Pull the published dashboard instead of the draft. */
  source?: 'draft' | 'published';
}

export interface PublishArgs {
  /** The file; defaults to the active editor's document (or the file of the active review). */
  uri?: string | vscode.Uri;
  /** An open review to confirm (Publish These Changes) or cancel, instead of a file. */
  reviewId?: string;
  /** Defaults to the deployment the file was pulled from. */
  deploymentId?: number;
  /** Publishes with no review (automation and tests). */
  confirm?: boolean;
}

export interface AttachThreadArgs {
  deploymentId?: number;
  workbookId?: number;
  uri?: string | vscode.Uri;
  threadId?: string;
  widgetId?: string;
  checksum?: string;
}
