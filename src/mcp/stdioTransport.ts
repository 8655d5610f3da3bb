// The MCP server's stdio transport: newline-delimited JSON-RPC like the SDK's StdioServerTransport,
// but one bad message never ends the session. The SDK's transport closes itself when a message is
// over its buffer limit (the server then exits, or with --sandbox stops answering) and drops
// malformed lines without a word. Here a message over the limit is skipped as it streams in (never
// buffered whole) and answered with a JSON-RPC error; malformed JSON gets a parse error and an
// invalid message an "invalid request" error; each is logged, and the next line is read as usual.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message read (the SDK's default buffer limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** JSON-RPC 2.0 error codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** Bytes of an oversize message kept from its start and its end, to find its id. */
const KEEP = 1024;
const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,256}")`;
/** `{"jsonrpc":"2.0","id":…` or `{"id":…` at the start: the top-level id. */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** `,"id":…}` closing the message: the top-level id (the SDK's client writes it last). */
const TAIL_ID = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

type RequestId = string | number;

/** The top-level id of a message too large to parse, from its first and last bytes. */
export function idOfOversize(head: string, tail: string): RequestId | undefined {
  const m = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail);
  if (!m) return undefined;
  try {
    const v = JSON.parse(m[1]!) as unknown;
    return typeof v === 'number' || typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

export interface RobustStdioOptions {
  maxMessageBytes?: number;
  /** Where a refused message is reported (the server's stderr log). */
  log?: (line: string) => void;
}

export class RobustStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly max: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while the rest of an oversize message is skipped. */
  private skipping: { head: string; tail: Buffer; size: number } | undefined;
  private started = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly opts: RobustStdioOptions = {},
  ) {
    this.max = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  private readonly onData = (chunk: Buffer) => this.take(chunk);
  private readonly onStreamError = (e: Error) => this.onerror?.(e);

  async start(): Promise<void> {
    if (this.started) throw new Error('The stdio transport is already started.');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private take(chunk: Buffer): void {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl;
      const piece = chunk.subarray(from, end);
      if (this.skipping) {
        this.skipping.size += piece.length;
        this.skipping.tail = Buffer.concat([this.skipping.tail, piece]).subarray(-KEEP);
      } else {
        this.parts.push(piece);
        this.size += piece.length;
        if (this.size > this.max) {
          const all = Buffer.concat(this.parts);
          this.skipping = {
            head: all.subarray(0, KEEP).toString('utf8'),
            tail: all.subarray(-KEEP),
            size: all.length,
          };
          this.parts = [];
          this.size = 0;
        }
      }
      if (nl === -1) return;
      from = nl + 1;
      if (this.skipping) {
        const s = this.skipping;
        this.skipping = undefined;
        this.guard(() => this.refuseOversize(s.head, s.tail.toString('utf8'), s.size));
      } else {
        const line = Buffer.concat(this.parts).toString('utf8');
        this.parts = [];
        this.size = 0;
        this.guard(() => this.handleLine(line));
      }
    }
  }

  /** Runs one message's handling; a handler that throws is reported and the next message is still read. */
  private guard(handle: () => void): void {
    try {
      handle();
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private refuseOversize(head: string, tail: string, size: number): void {
    const id = idOfOversize(head, tail);
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    const message = `Message too large (${mib(size)}; the limit is ${mib(this.max)}); it was not read.`;
    this.report(
      `refused a message of ${size} bytes${id !== undefined ? ` (id ${JSON.stringify(id)})` : ''}: over the ${this.max}-byte limit`,
    );
    void this.sendError(INVALID_REQUEST, message, id);
  }

  private handleLine(raw: string): void {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.report(`refused a line that is not JSON (${line.length} characters): ${(e as Error).message}`);
      void this.sendError(PARSE_ERROR, 'Parse error: the message is not valid JSON.');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const obj =
      value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    const id = typeof obj?.id === 'string' || typeof obj?.id === 'number' ? obj.id : undefined;
    // A malformed answer to one of our requests is not answered back (that would be a reply to a reply).
    const isResponse = obj !== undefined && !('method' in obj) && ('result' in obj || 'error' in obj);
    this.report(
      `refused a message that is not JSON-RPC${id !== undefined ? ` (id ${JSON.stringify(id)})` : ''}`,
    );
    if (!isResponse)
      void this.sendError(INVALID_REQUEST, 'Invalid request: the message is not a JSON-RPC 2.0 message.', id);
  }

  private report(line: string): void {
    this.opts.log?.(`[mcp] ${line}`);
  }

  private sendError(code: number, message: string, id?: RequestId): Promise<void> {
    // MCP lets an error without a known id omit it (JSON-RPC's null id fails the SDK's schema).
    const answer = { jsonrpc: '2.0' as const, ...(id !== undefined ? { id } : {}), error: { code, message } };
    return this.write(`${JSON.stringify(answer)}\n`);
  }

  private write(text: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(text)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.skipping = undefined;
    this.onclose?.();
  }
}
