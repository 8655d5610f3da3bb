// What the sandbox keeps of embeddable dashboards' comments (in SandboxState, so saved with it).

export interface EmbedCommentRow {
  id: number;
  publicId: string;
  tenant: string;
  userId: number;
  body: string;
  parentId: number | null;
  createdAt: string;
  editedAt: string | null;
  removedAt: string | null;
  resolvedAt: string | null;
  resolvedBy: number | null;
}

export interface EmbedCommentState {
  comments: EmbedCommentRow[];
  /** Embed sessions already redeemed for a token (a session is single use). */
  exchanged: string[];
}
