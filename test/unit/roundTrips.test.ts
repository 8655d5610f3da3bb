// Round trips of the parsers and serializers users' data goes through that had none: unknown fields
// survive parse → serialize, and hostile input (control characters, NUL, huge strings, wrong types,
// prototype keys, invalid UTF-8) gets a clear error or is kept as data, never a crash or silent
// loss. Covered elsewhere: notebook format, dashboard file, the model folder's strict UTF-8
// (model/branchFilesTree), agent guards, MCP.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { draftOf, editChanges } from '../../src/notifications/notificationDraft';
import { toSettingsValue } from '../../src/profiles/profileModel';
import { parseProfileEntry, parseProfiles } from '../../src/profiles/profileParse';
import { ProfileSchema } from '../../src/profiles/profileSchema';
import { decodeSecret, encodeSecret } from '../../src/profiles/secretBinding';
import { hostToWebview as chatToWebview } from '../../src/shared/chatProtocol';
import { hostToWebview, webviewToHost } from '../../src/shared/dashboardEditorProtocol';
import type * as ReportDocumentsModule from '../../src/workspace/reportDocuments';
import { forgetVscodeDependents } from './vscodeStandIn';

const HUGE = 'x'.repeat(1_000_000);
const CONTROL = 'a\u0000b\u0007c\u001b[31md\u202ee\r\nf';
/** Keys that would reach Object.prototype if copied with plain assignment. */
const PROTO_JSON = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';

function assertNotPolluted(): void {
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype was polluted');
}

describe('round trips: profiles in settings', () => {
  const base = { name: 'Prod', platformUrl: 'https://prod.example.com/api/' };

  it('unknown fields, nested ones included, survive settings → parse → settings', () => {
    const entry = {
      ...base,
      futureField: { nested: [1, 'two', null], flag: true },
      production: false,
      retries: 0,
      agents: [
        { label: 'Analyst', url: 'https://ai.example.com/api/v1/public/acme/agents/a1', model: 'next' },
      ],
      session: { externalId: 'jane', region: 'eu' },
    };
    const { profiles, problems } = parseProfiles([structuredClone(entry)]);
    assert.deepEqual(problems, []);
    const written = toSettingsValue(profiles[0]!);
    assert.deepEqual(written, {
      ...entry,
      platformUrl: 'https://prod.example.com/api',
      agents: [{ ...entry.agents[0], url: 'https://ai.example.com/api/v1/public/acme/agents/a1' }],
    });
    // Parsing what was written gives it back unchanged (a second trip changes nothing).
    assert.deepEqual(toSettingsValue(parseProfiles([written]).profiles[0]!), written);
  });

  it('__proto__ and constructor keys from settings.json are kept as data and pollute nothing', () => {
    const raw: unknown = JSON.parse(`[${JSON.stringify(base).slice(0, -1)},${PROTO_JSON.slice(1, -1)}}]`);
    const { profiles, problems } = parseProfiles(raw);
    assert.deepEqual(problems, []);
    const written = toSettingsValue(profiles[0]!);
    assert.ok(Object.hasOwn(written, '__proto__'), 'the __proto__ key is kept as an own field');
    assert.deepEqual(JSON.parse(JSON.stringify(written)).__proto__, { polluted: true });
    assert.equal(Object.getPrototypeOf(written), Object.prototype);
    const session = parseProfileEntry({ ...base, session: JSON.parse(PROTO_JSON) });
    assert.ok(session.ok);
    assertNotPolluted();
  });

  it('control characters and a huge environment label: kept as data, or refused naming the field', () => {
    const kept = parseProfileEntry({ ...base, environment: 'p\u0000r\u0007d', note: CONTROL });
    assert.ok(kept.ok);
    assert.equal(kept.value.environment, 'p\u0000r\u0007d');
    assert.equal((kept.value as Record<string, unknown>)['note'], CONTROL);
    assert.deepEqual(parseProfileEntry({ ...base, environment: HUGE }), {
      ok: false,
      issue: { path: ['environment'], message: 'at most 32 characters' },
    });
    const longName = parseProfiles([{ ...base, name: HUGE }]);
    assert.deepEqual(longName.profiles, []);
    assert.match(longName.problems[0]!, /name: at most 64 characters/);
  });

  it('wrong types get a sentence naming the field, never a throw', () => {
    const cases: [unknown, string][] = [
      [{ ...base, name: 42 }, 'name: expected a string, got number'],
      [{ ...base, platformUrl: ['https://x'] }, 'platformUrl: expected a string, got array'],
      [{ ...base, platformUrl: 'https://a\u0000b.example.com' }, 'platformUrl: "https://a'],
      [{ ...base, agents: { 0: 'x' } }, 'agents: expected an array, got object'],
      [{ ...base, agents: [null] }, 'agents.0: expected an object, got null'],
      [{ ...base, defaultDeploymentId: '7' }, 'defaultDeploymentId: expected a number, got string'],
      [{ ...base, defaultDeploymentId: 2 ** 60 }, 'defaultDeploymentId: expected an integer'],
      [{ ...base, production: 'yes' }, 'production: expected a boolean, got string'],
      [{ ...base, color: '__proto__' }, 'color: expected one of none, warning, error'],
      [{ ...base, session: { internalId: {} } }, 'session.internalId: expected a string, got object'],
      ['Prod', '(entry): expected an object, got string'],
    ];
    for (const [entry, says] of cases) {
      const { profiles, problems } = parseProfiles([entry]);
      assert.deepEqual(profiles, [], JSON.stringify(entry));
      assert.equal(problems.length, 1, JSON.stringify(entry));
      assert.ok(problems[0]!.includes(says), `${problems[0]} should say ${says}`);
      // The zod schema (Add Profile) refuses the same entries.
      assert.equal(ProfileSchema.safeParse(entry).success, false, JSON.stringify(entry));
    }
  });
});

describe('round trips: secrets bound to origins', () => {
  it('any token value survives encode → decode exactly: quotes, NUL, control, non-BMP, huge', () => {
    const values = ['"quoted" \\ back', 'nul\u0000here', CONTROL, 'émoji 😀 \u2028', '{"origin":"x"}', HUGE];
    for (const value of values) {
      const secret = { value, origins: ['https://a.example.com', 'http://127.0.0.1:8443'] };
      assert.deepEqual(decodeSecret(encodeSecret(secret)), { kind: 'bound', secret }, value.slice(0, 40));
    }
  });

  it('a stored value with unknown and prototype keys reads as bound, pollutes nothing', () => {
    const raw = `{"origin":"https://a.example.com","value":"t","also":["https://b.example.com",7,null],"v":2,${PROTO_JSON.slice(1, -1)}}`;
    assert.deepEqual(decodeSecret(raw), {
      kind: 'bound',
      secret: { value: 't', origins: ['https://a.example.com', 'https://b.example.com'] },
    });
    assertNotPolluted();
  });

  it('wrong types and broken JSON are read as a plain (legacy) token, kept whole', () => {
    for (const raw of [
      '{"origin":1,"value":"t"}',
      '{"origin":"https://a.example.com","value":{"x":1}}',
      '{"origin":"https://a.example.com","value":"t"',
      '{\u0000}',
      'plain\u0000token',
    ]) {
      assert.deepEqual(decodeSecret(raw), { kind: 'legacy', value: raw });
    }
  });
});

describe('round trips: the notification draft', () => {
  const stored = {
    cronExpression: '15 8 * * 1',
    timezone: 'Europe/Paris',
    notificationFormat: 'pdf',
    filters: [
      { member: 'orders.status', operator: 'equalsIgnoringCase', value: ['open'], required: true, x: 1 },
      { member: 'orders.region', operator: 'equals', value: ['eu'] },
    ],
    timeGrains: [{ member: 'orders.createdAt', grain: 'week' }],
    futureField: 'kept by the service',
  };

  it('a filter with unknown operator and fields goes back exactly as stored when another changes', () => {
    const start = draftOf(structuredClone(stored));
    const draft = { ...start, filters: [start.filters![0]!, { member: 'orders.city', value: ['Nice'] }] };
    assert.deepEqual(editChanges(start, draft), {
      filters: [{ kept: stored.filters[0] }, { member: 'orders.city', value: ['Nice'] }],
    });
    assert.deepEqual(editChanges(start, draftOf(structuredClone(stored))), {});
  });

  it('hostile entries (null, strings, numbers) in filters and time grains are no crash', () => {
    const n = {
      ...stored,
      filters: [null, 'orders.status', 7, stored.filters[1]],
      timeGrains: [null, { member: 'a.b', grain: 'day' }],
    };
    const d = draftOf(n);
    assert.deepEqual(
      d.filters!.map((f) => f.member),
      ['orders.region'],
    );
    assert.deepEqual(d.timeGrains, [{ member: 'a.b', grain: 'day' }]);
  });

  it('control characters, prototype keys and a huge cron are kept as data', () => {
    const filter = { member: 'a\u0000b', operator: 'equals', value: [CONTROL], ...JSON.parse(PROTO_JSON) };
    const d = draftOf({ cronExpression: `${HUGE} * * * *`, timezone: CONTROL, filters: [filter] });
    assert.equal(d.scheduleType, 'CUSTOM');
    assert.equal(d.customCron, `${HUGE} * * * *`);
    assert.equal(d.timezone, CONTROL);
    assert.equal(d.filters![0]!.stored, filter);
    assert.deepEqual(d.filters![0]!.value, [CONTROL]);
    const sent = editChanges(d, { ...d, filters: [...d.filters!, { member: 'x' }] });
    assert.equal((sent['filters'] as { kept: unknown }[])[0]!.kept, filter);
    assertNotPolluted();
  });

  it('wrong types from the service are not taken for a schedule, format or zone', () => {
    const d = draftOf({ cronExpression: 815, timezone: { id: 'UTC' }, notificationFormat: 'PDF ' });
    assert.deepEqual(d, {});
  });
});

describe('round trips: dashboard editor protocol messages', () => {
  // zod strips a `__proto__` key (by design, against prototype pollution): the other keys, a
  // `constructor` one included, survive; see the report on issue 26 for the `__proto__` case.
  it('a widget config keeps unknown fields, nested, and a constructor key as data', () => {
    const config = JSON.parse(
      `{"title":"T","future":{"deep":[1,{"k":null}]},${PROTO_JSON.slice(1, -1)}}`,
    ) as Record<string, unknown>;
    const m = webviewToHost.parse({ type: 'setWidgetConfig', id: 'w1', config });
    assert.ok(m.type === 'setWidgetConfig');
    const rest = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
    delete rest['__proto__'];
    assert.deepEqual(JSON.parse(JSON.stringify(m.config)), rest);
    assert.deepEqual(Object.keys(m.config), ['title', 'future', 'constructor']);
    assertNotPolluted();
  });

  it('the state sent to the page keeps the publish input’s unknown fields', () => {
    const input = { title: 'D', 'x-new': { a: [1, CONTROL] }, widgets: [{ id: 'w', later: true }] };
    const s = hostToWebview.parse({ type: 'state', input: structuredClone(input), problems: [] });
    assert.deepEqual(s.input, input);
  });

  it('a theme path of prototype keys, control characters or huge is refused', () => {
    for (const p of [
      ['__proto__'],
      ['constructor', 'prototype'],
      ['widgets', '__proto__'],
      ['a\u0000'],
      [HUGE],
    ])
      assert.equal(webviewToHost.safeParse({ type: 'setTheme', path: p, value: 'red' }).success, false);
    // A value with control characters is data: the host's CSS check judges it, not the protocol.
    assert.equal(
      webviewToHost.safeParse({ type: 'setTheme', path: ['primaryColor'], value: CONTROL }).success,
      true,
    );
  });

  it('wrong types, unknown message types and non-objects get an error, never a throw', () => {
    for (const m of [
      null,
      'ready',
      [],
      { type: '__proto__' },
      { type: 'moveWidget', id: 'w', x: '1', y: 0, breakpoint: null },
      { type: 'moveWidget', id: 'w', x: 1e9, y: 0, breakpoint: null },
      { type: 'resizeWidget', id: 'w', w: NaN, h: 1, breakpoint: null },
      { type: 'setWidgetConfig', id: 'w', config: [1] },
      { type: 'setTitle', title: { toString: 'x' } },
      { type: 'deleteWidget', id: '' },
    ]) {
      const r = webviewToHost.safeParse(m);
      assert.equal(r.success, false, JSON.stringify(m));
      assert.ok(r.error.issues.length > 0);
    }
  });
});

describe('round trips: chat protocol messages', () => {
  it('a tool result keeps the service’s unknown fields, on the result and on each column', () => {
    const result = {
      schema: [{ name: 'n', type: 'number', format: 'currency' }],
      data: [[1, CONTROL, null]],
      totalRows: 1,
      nextField: { any: true },
    };
    const m = chatToWebview.parse({ type: 'toolCall', id: 't', name: 'query', input: {}, result });
    assert.ok(m.type === 'toolCall');
    assert.deepEqual(m.result, result);
  });

  it('wrong types get an error, never a throw; prototype keys pollute nothing', () => {
    for (const m of [
      { type: 'toolCall', id: 't', name: 'q', input: {}, result: { data: 'rows' } },
      { type: 'assistantText', id: 'a', inProcess: 'yes' },
      { type: 'error', message: HUGE, retryable: 1 },
      JSON.parse(`{"type":"usage","usage":{"inputTokens":"9"},${PROTO_JSON.slice(1, -1)}}`),
    ])
      assert.equal(chatToWebview.safeParse(m).success, false);
    assertNotPolluted();
  });
});

// The report documents module imports vscode: a stand-in with what it touches.
const STUB_SOURCE = `
class Uri {
  constructor(c) { Object.assign(this, c); }
  static from(c) { return new Uri({ scheme: c.scheme, authority: '', path: c.path ?? '', query: c.query ?? '', fragment: '' }); }
  toString() { return this.scheme + ':' + this.path + (this.query ? '?' + this.query : ''); }
}
class FileSystemError extends Error {
  constructor(message, code) { super(String(message)); this.code = code; }
  static FileNotFound(m) { return new FileSystemError(m, 'FileNotFound'); }
  static Unavailable(m) { return new FileSystemError(m, 'Unavailable'); }
  static NoPermissions(m) { return new FileSystemError(m, 'NoPermissions'); }
}
class EventEmitter { constructor() { this.event = () => ({ dispose() {} }); } fire() {} dispose() {} }
class Disposable { constructor(f) { this.dispose = f; } }
const providers = {};
module.exports = {
  Uri, FileSystemError, EventEmitter, Disposable, providers,
  FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
  FileType: { File: 1, Directory: 2 },
  FilePermission: { Readonly: 1 },
  workspace: { registerFileSystemProvider(scheme, p) { providers[scheme] = p; return new Disposable(() => undefined); } },
};
`;

describe('round trips: report SQL documents', () => {
  let reports: typeof ReportDocumentsModule;
  let providers: Record<
    string,
    {
      readFile(u: unknown): Promise<Uint8Array>;
      writeFile(u: unknown, c: Uint8Array, o: object): Promise<void>;
    }
  >;
  let dir: string;
  const mod = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = mod._resolveFilename;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-trips-test-'));
    const file = path.join(dir, 'vscode.js');
    fs.writeFileSync(file, STUB_SOURCE);
    mod._resolveFilename = function (request: string, ...rest: unknown[]) {
      return request === 'vscode' ? file : resolve.call(this, request, ...rest);
    };
    // A suite that ran before may have loaded reportDocuments bound to its own stand-in.
    forgetVscodeDependents();
    /* eslint-disable @typescript-eslint/no-require-imports */
    reports = require('../../src/workspace/reportDocuments') as typeof ReportDocumentsModule;
    providers = (require(file) as { providers: typeof providers }).providers;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });

  after(() => {
    mod._resolveFilename = resolve;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function open(sql: string) {
    const writes: string[] = [];
    const docs = new reports.ReportDocuments();
    docs.useSource(async () => ({
      read: async () => ({ name: 'Revenue', sql }),
      write: async (_ref, _name, text) => {
        writes.push(text);
      },
    }));
    docs.register();
    const ref = { deploymentId: 3, reportId: 9 };
    const draft = providers[reports.REPORT_DRAFT_SCHEME]!;
    return { writes, draft, uri: reports.reportUri(ref, 'Revenue', true), docs };
  }

  it('SQL with control characters, NUL, non-BMP and 100 kB survives read → save byte for byte', async () => {
    const sql = `-- ${CONTROL}\nSELECT '😀 \u0000 é' AS "x" /* ${'y'.repeat(100_000)} */`;
    const { writes, draft, uri } = open(sql);
    const bytes = await draft.readFile(uri);
    assert.equal(Buffer.from(bytes).toString('utf8'), sql);
    await draft.writeFile(uri, bytes, { create: false, overwrite: true });
    assert.deepEqual(writes, [sql]);
    assert.equal(Buffer.from(await draft.readFile(uri)).toString('utf8'), sql);
  });

  it('a draft saved as Latin-1 or UTF-16 is refused with what to do, and nothing is sent', async () => {
    const { writes, draft, uri } = open('SELECT 1');
    await draft.readFile(uri);
    for (const bytes of [
      Buffer.from("SELECT 'café'", 'latin1'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('SELECT 1', 'utf16le')]),
      Uint8Array.from([0x53, 0xc3]),
    ]) {
      await assert.rejects(draft.writeFile(uri, bytes, { create: false, overwrite: true }), (e: Error) => {
        assert.equal((e as { code?: string }).code, 'Unavailable');
        assert.match(e.message, /not saved: it is not UTF-8 text\. Switch the file's encoding to UTF-8/);
        return true;
      });
    }
    assert.deepEqual(writes, []);
    // The preview still holds what the server has.
    assert.equal(Buffer.from(await draft.readFile(uri)).toString('utf8'), 'SELECT 1');
  });

  it('a hostile report name makes a plain file name that still names the report', () => {
    assert.equal(reports.reportFileName('../../etc/passwd'), '.. .. etc passwd.sql');
    assert.equal(reports.reportFileName('a\u0000b\r\nc\u2028d'), 'a b c d.sql');
    assert.equal(reports.reportFileName('\u0000\u0007'), 'report.sql');
    assert.equal(reports.reportFileName(HUGE).length, 120 + '.sql'.length);
    const uri = reports.reportUri({ deploymentId: 1, reportId: 2 }, 'x/../\\y');
    assert.deepEqual(reports.reportRefOf(uri), { deploymentId: 1, reportId: 2 });
  });

  it('a URI with a forged query or path names no report', () => {
    const u = (p: string, query: string) =>
      ({ scheme: reports.REPORT_SCHEME, path: p, query }) as unknown as Parameters<
        typeof reports.reportRefOf
      >[0];
    for (const [p, q] of [
      ['/a.sql', 'deployment=1&report=2&deployment=3'],
      ['/a.sql', 'deployment=-1&report=2'],
      ['/a.sql', 'deployment=1e3&report=2'],
      ['/a/b.sql', 'deployment=1&report=2'],
      ['/a.sql', '__proto__=1'],
    ] as const)
      assert.equal(reports.reportRefOf(u(p, q)), undefined, `${p}?${q}`);
  });
});
