// How a followed dbt sync's end is told, apart from VS Code so it is tested in plain Node. The
// status API answers FAILED for a run that was cancelled (the published documents have no
// CANCELLED status), so a FAILED is read as a cancel only for a run this window asked to cancel;
// any other FAILED stays a failure.
import type { DbtSyncJob } from '../api/platform/dbtSync';
import { plainSentence, plainText } from '../explorer/labels';

/** The runs whose cancel this window sent (marked before the request, so no poll races it). */
export class CancelRequests {
  private readonly sent = new Set<string>();
  private key(deploymentId: number, syncJobId: string): string {
    return `${deploymentId}/${syncJobId}`;
  }
  /** Marks the run before its cancel is sent. */
  asked(deploymentId: number, syncJobId: string): void {
    this.sent.add(this.key(deploymentId, syncJobId));
  }
  /** The cancel was refused: a later FAILED is a failure again. */
  refused(deploymentId: number, syncJobId: string): void {
    this.sent.delete(this.key(deploymentId, syncJobId));
  }
  has(deploymentId: number, syncJobId: string): boolean {
    return this.sent.has(this.key(deploymentId, syncJobId));
  }
}

export interface DbtEnd {
  /** The run as the user sees it: CANCELLED when they cancelled it, whatever the status API said. */
  job: DbtSyncJob;
  /** The log's last line. */
  line: string;
  /** The error to show, or none (completed; or cancelled by this window, whose Cancel says so). */
  error?: string;
}

/** The end of a finished run named `name` (its log is in `channel`). */
export function dbtEnd(job: DbtSyncJob, name: string, cancelledHere: boolean, channel: string): DbtEnd {
  const seen: DbtSyncJob = cancelledHere && job.status === 'FAILED' ? { ...job, status: 'CANCELLED' } : job;
  const line = `── ${plainText(seen.status)}${seen.error ? `: ${plainText(seen.error)}` : ''} ──`;
  if (cancelledHere && seen.status === 'CANCELLED') return { job: seen, line };
  if (seen.status !== 'FAILED' && seen.status !== 'CANCELLED') return { job: seen, line };
  return {
    job: seen,
    line,
    error: `The dbt sync of ${name} ${seen.status === 'CANCELLED' ? 'was cancelled' : 'failed'}: ${plainSentence(seen.error ?? 'no reason given')} Its log is in the "${channel}" output.`,
  };
}
