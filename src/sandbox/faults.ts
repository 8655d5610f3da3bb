// Fault injection: rules matched per family, route and method, applied by the request context to
// every response (latency, an error status, 429 with Retry-After, a reset in the middle of a body)
// and to NDJSON streams (a truncated or malformed line, a slow drip). Switchable at start and at
// run time (FaultController, or /__sandbox/faults).
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { writeChunk, type Family } from './http';

/**
 * A success answer put in place of the route's, whatever the route: an HTML sign-in page (a
 * proxy's), an empty 200, `{}`, or with `padBytes` an oversized body streamed until the client
 * hangs up. What a client must refuse rather than take for data.
 */
export const FaultAnswerSchema = z.object({
  status: z.number().int().min(200).max(299).optional(),
  contentType: z.string().optional(),
  body: z.string().optional(),
  padBytes: z.number().int().min(1).max(1_000_000_000).optional(),
  /** With padBytes: declare the whole length in Content-Length (else the padding is chunked). */
  declareLength: z.boolean().optional(),
});
export type FaultAnswer = z.infer<typeof FaultAnswerSchema>;

export const FaultRuleSchema = z.object({
  family: z.enum(['platform', 'data', 'ai']).optional(),
  /** A substring of the family-relative path, or a /regex/. */
  route: z.string().optional(),
  method: z.string().optional(),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  status: z.number().int().min(100).max(599).optional(),
  body: z.unknown().optional(),
  retryAfterSeconds: z.number().min(0).optional(),
  resetMidBody: z.boolean().optional(),
  truncateNdjson: z.boolean().optional(),
  malformedNdjson: z.boolean().optional(),
  dripMs: z.number().int().min(0).max(60_000).optional(),
  answer: FaultAnswerSchema.optional(),
  /**
   * Build API file writes (`PUT …/data-model/files`): right after the request's own write, another
   * user writes these files to the same branch, before the answer (a write that overtakes the
   * caller's next read).
   */
  concurrentWrite: z
    .array(z.object({ path: z.string().min(1), content: z.string() }))
    .min(1)
    .optional(),
  /** Apply to the next N matching requests only, then drop the rule. */
  times: z.number().int().min(1).optional(),
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;

interface Active extends FaultRule {
  remaining?: number;
}

export class FaultController {
  private rules: Active[] = [];

  constructor(initial: FaultRule[] = []) {
    this.set(initial);
  }

  list(): FaultRule[] {
    return this.rules.map(({ remaining, ...r }) => ({
      ...r,
      ...(remaining !== undefined ? { times: remaining } : {}),
    }));
  }

  set(rules: FaultRule[]): void {
    this.rules = rules.map((r) => ({ ...FaultRuleSchema.parse(r), remaining: r.times }));
  }

  add(rule: FaultRule): void {
    this.rules.push({ ...FaultRuleSchema.parse(rule), remaining: rule.times });
  }

  clear(): void {
    this.rules = [];
  }

  /** The rules that apply to this request, merged (later rules win); consumes `times`. */
  take(family: Family, method: string, path: string): FaultRule | undefined {
    if (family === 'control') return undefined;
    let merged: FaultRule | undefined;
    for (const rule of this.rules) {
      if (rule.family && rule.family !== family) continue;
      if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (rule.route && !routeMatches(rule.route, path)) continue;
      const { remaining: _r, times: _t, ...effect } = rule;
      merged = { ...merged, ...effect };
      if (rule.remaining !== undefined) rule.remaining--;
    }
    this.rules = this.rules.filter((r) => r.remaining === undefined || r.remaining > 0);
    return merged;
  }
}

function routeMatches(route: string, path: string): boolean {
  // A plain substring first: paths like "/v1/cubesql" also look like /regex/flags.
  if (path.includes(route)) return true;
  const re = /^\/(.+)\/([gimsuy]*)$/.exec(route);
  if (!re) return false;
  try {
    return new RegExp(re[1]!, re[2]).test(path);
  } catch {
    return false;
  }
}

/** Writes a fault's answer: `body` (Content-Length set), or `body` then `padBytes` of padding. */
export async function serveFaultAnswer(
  res: ServerResponse,
  a: FaultAnswer,
  requestId: string,
): Promise<void> {
  const headers: Record<string, string> = {
    'x-request-id': requestId,
    ...(a.contentType ? { 'content-type': a.contentType } : {}),
  };
  const body = Buffer.from(a.body ?? '', 'utf8');
  if (!a.padBytes) {
    res.writeHead(a.status ?? 200, { ...headers, 'content-length': String(body.length) }).end(body);
    return;
  }
  if (a.declareLength) headers['content-length'] = String(body.length + a.padBytes);
  res.writeHead(a.status ?? 200, headers);
  res.write(body);
  const pad = Buffer.alloc(64 * 1024, 0x61);
  let left = a.padBytes;
  while (left > 0 && !res.destroyed) {
    const n = Math.min(left, pad.length);
    left -= n;
    await writeChunk(res, n === pad.length ? pad : pad.subarray(0, n));
  }
  if (!res.destroyed) res.end();
}
