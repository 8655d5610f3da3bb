// The agent tools' guards, in this process (so StrykerJS sees what they cover): where a file may be
// read or written, what each effect promises, what a tool refuses before it touches anything, and
// how service text and secrets reach the agent. Each guard: the forbidden thing refused, the
// allowed thing done.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlatformGateway, type ClientSource, type ProfileInfo } from '../../../src/agents/gateway';
import {
  effectTags,
  findTool,
  parseInput,
  runTool,
  toolAnnotations,
  type FileAccess,
  type ProposedChange,
  type ToolContext,
} from '../../../src/agents/tools';
import {
  cellText,
  failureText,
  fenced,
  markdownTable,
  named,
  quote,
  renderText,
  resolveDeployment,
  structured,
} from '../../../src/agents/tools/format';
import { dashboardFromWorkbook } from '../../../src/dashboards/dashboardFile';
import {
  PathRefusedError,
  readInside,
  resolveInside,
  writeInside,
} from '../../../src/agents/tools/workspacePaths';

const quiet = { info() {}, warn() {} };
const DASH = `${JSON.stringify({ workbookId: 1001, title: 'Sales' }, null, 2)}\n`;

async function refusal(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  assert.fail('expected a refusal');
}

describe('agent tool guards: workspace paths', () => {
  let base: string;
  let root: string;
  let other: string;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-guards-'));
    root = path.join(base, 'root');
    other = path.join(base, 'other');
    fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(root, 'a', 'b', 'c.dashboard.json'), DASH);
    fs.writeFileSync(path.join(other, 'o.dashboard.json'), DASH);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('with no folder open, refuses and says to open one', async () => {
    const e = await refusal(resolveInside([], 'c.dashboard.json'));
    assert.ok(e instanceof PathRefusedError);
    assert.equal(e.name, 'PathRefusedError');
    assert.equal(e.message, 'Open a folder first: files are read and written inside the workspace only.');
  });

  it('refuses a NUL character in a name', async () => {
    const e = await refusal(resolveInside([root], 'a\0.dashboard.json'));
    assert.ok(e instanceof PathRefusedError);
    assert.equal(e.message, 'The file name contains a NUL character.');
  });

  it("names a nested file with '/' separators, relative to its root", async () => {
    const r = await resolveInside([root], path.join('a', 'b', 'c.dashboard.json'));
    assert.deepEqual(r, {
      real: fs.realpathSync(path.join(root, 'a', 'b', 'c.dashboard.json')),
      exists: true,
      display: 'a/b/c.dashboard.json',
    });
  });

  it('resolves a new file in new folders to its real place, as not existing', async () => {
    const r = await resolveInside([root], 'new/deeper/n.dashboard.json');
    assert.deepEqual(r, {
      real: path.join(fs.realpathSync(root), 'new', 'deeper', 'n.dashboard.json'),
      exists: false,
      display: 'new/deeper/n.dashboard.json',
    });
    // Under a file (not a folder): still resolved inside, and a write there fails without creating anything.
    const under = await resolveInside([root], 'a/b/c.dashboard.json/x/y.json');
    assert.equal(under.exists, false);
    await assert.rejects(writeInside([root], 'a/b/c.dashboard.json/x/y.json', '{}'));
    assert.equal(fs.readFileSync(path.join(root, 'a', 'b', 'c.dashboard.json'), 'utf8'), DASH);
  });

  it('skips a root that does not exist and uses the next one', async () => {
    const r = await resolveInside([path.join(base, 'gone'), other], path.join(other, 'o.dashboard.json'));
    assert.equal(r.display, 'o.dashboard.json');
    assert.equal(r.exists, true);
  });

  it('says which folders were allowed, and whether a link led out', async () => {
    const one = await refusal(resolveInside([root], '../other/o.dashboard.json'));
    assert.ok(one instanceof PathRefusedError);
    assert.equal(
      one.message,
      `"../other/o.dashboard.json" is refused: it leads outside the folder agents may use (${root}). Nothing was read or written.`,
    );
    const two = await refusal(resolveInside([root, path.join(base, 'third')], path.join(base, 'x.json')));
    assert.match(two.message, /outside the folders agents may use \(/);
    assert.ok(two.message.includes(`(${root}, ${path.join(base, 'third')})`), two.message);
    assert.ok(!two.message.includes('through a link'), two.message);
    // A link in the first of two roots, leading out: named as such.
    fs.symlinkSync(path.join(other, 'o.dashboard.json'), path.join(root, 'out.dashboard.json'));
    const linked = await refusal(resolveInside([root, path.join(base, 'third')], 'out.dashboard.json'));
    assert.match(linked.message, /agents may use through a link \(/);
  });

  it('reads only files that exist and are files, saying which', async () => {
    const e1 = await refusal(readInside([root], 'missing.dashboard.json'));
    assert.equal(e1.message, 'Cannot read missing.dashboard.json: it does not exist.');
    const e2 = await refusal(readInside([root], 'a'));
    assert.equal(e2.message, 'Cannot read a: it is not a file.');
    const ok = await readInside([root], 'a/b/c.dashboard.json');
    assert.equal(ok.text, DASH);
    assert.equal(ok.display, 'a/b/c.dashboard.json');
  });

  it('writes only files, returns what it wrote, and leaves no file open', async () => {
    const e = await refusal(writeInside([root], 'a', 'x'));
    assert.equal(e.message, 'Cannot write a: it is not a file.');
    assert.ok(fs.statSync(path.join(root, 'a')).isDirectory());
    // The handles open on the written file (its temporary siblings included), not the process's
    // count: other tests' sockets close while this one runs.
    const dir = fs.realpathSync(path.join(root, 'a', 'b'));
    const fds = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir + path.sep);
        } catch {
          return false; // closed between the listing and the look
        }
      }).length;
    const before = fds();
    assert.equal(before, 0, 'no handle on the folder before the writes');
    for (let i = 0; i < 5; i++) {
      const w = await writeInside([root], 'a/b/c.dashboard.json', `é${i}`);
      assert.deepEqual(w, {
        display: 'a/b/c.dashboard.json',
        real: fs.realpathSync(path.join(root, 'a', 'b', 'c.dashboard.json')),
      });
    }
    assert.equal(fds(), before, 'every handle opened for a write is closed');
    assert.equal(fs.readFileSync(path.join(root, 'a', 'b', 'c.dashboard.json'), 'utf8'), 'é4');
  });
});

describe('agent tool guards: effects', () => {
  it('each effect has honest annotations and tags', () => {
    assert.deepEqual(toolAnnotations('read'), {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    assert.deepEqual(toolAnnotations('query'), {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    assert.deepEqual(toolAnnotations('write'), {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.deepEqual(toolAnnotations('production'), {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    assert.deepEqual(effectTags('read'), ['dashboard-platform', 'read-only']);
    assert.deepEqual(effectTags('production'), ['dashboard-platform', 'writes', 'destructive', 'production']);
    assert.equal(findTool('publish_dashboard')?.effect, 'production');
    assert.equal(findTool('propose_dashboard_change')?.effect, 'write');
  });
});

/** A gateway over fakes: deployments, one workbook, and a publish that records what it was given. */
function fakeGateway(opts: {
  profile?: Partial<ProfileInfo> | (() => ProfileInfo);
  deployments?: { id: number; name: string }[];
  publish?: Record<string, unknown>;
  workbook?: Record<string, unknown>;
}) {
  const published: unknown[] = [];
  const deployments = opts.deployments ?? [{ id: 1, name: 'Main' }];
  const profile =
    typeof opts.profile === 'function'
      ? opts.profile
      : () => ({ name: 'P', production: false, sandbox: false, ...opts.profile });
  const gateway = new PlatformGateway(
    {
      platform: async () =>
        ({
          getDeployment: async (id: number) => {
            const d = deployments.find((x) => x.id === id);
            if (!d) throw new Error('not found');
            return d;
          },
          listDeployments: async (args: { first?: number }) => ({
            items: deployments.slice(0, args.first ?? 50),
            pageInfo: { hasNextPage: false },
          }),
          getWorkbook: async () => opts.workbook,
          publishDashboard: async (dep: number, wb: number, input: unknown) => {
            published.push({ dep, wb, input });
            return opts.publish ?? { versionNumber: 9, status: 'published', publicId: 'pub-1' };
          },
        }) as never,
      data: async () => {
        throw new Error('unused');
      },
    } as ClientSource,
    profile,
  );
  return { gateway, published };
}

/** Files held in memory, recording what was proposed; `apply` says whether a proposal is taken. */
function memoryFiles(files: Record<string, string>, apply = true) {
  const proposed: ProposedChange[] = [];
  const access: FileAccess = {
    async read(file) {
      const text = files[file];
      if (text === undefined) throw new Error(`Cannot read ${file}: it does not exist.`);
      return { text, display: `shown/${file}` };
    },
    async propose(change) {
      proposed.push(change);
      if (apply) files[change.file] = change.newText;
      return apply ? { applied: true, detail: 'done here' } : { applied: false, detail: 'discarded' };
    },
  };
  return { access, proposed, files };
}

describe('agent tool guards: propose_dashboard_change and publish_dashboard', () => {
  const run = (ctx: ToolContext, name: string, args: unknown) =>
    runTool(findTool(name)!, ctx, args, { log: quiet, surface: 'test' });

  it('refuse without file access, for other files, and without exactly one of changes or content', async () => {
    const { gateway } = fakeGateway({ profile: { defaultDeploymentId: 1 } });
    const mem = memoryFiles({ 'd.dashboard.json': DASH, 'notes.json': '{}' });
    const cases: [string, unknown, string, ToolContext][] = [
      [
        'propose_dashboard_change',
        { file: 'd.dashboard.json', content: DASH },
        'This client cannot edit files.',
        { gateway, redact: (s) => s },
      ],
      [
        'publish_dashboard',
        { file: 'd.dashboard.json' },
        'This client cannot read files.',
        { gateway, redact: (s) => s },
      ],
      [
        'propose_dashboard_change',
        { file: 'notes.json', content: '{}' },
        'Only *.dashboard.json files can be changed by this tool.',
        { gateway, redact: (s) => s, files: mem.access },
      ],
      [
        'propose_dashboard_change',
        { file: 'd.dashboard.json.bak', content: '{}' },
        'Only *.dashboard.json files can be changed by this tool.',
        { gateway, redact: (s) => s, files: mem.access },
      ],
      [
        'publish_dashboard',
        { file: 'd.dashboard.json.bak' },
        'Only *.dashboard.json files can be published by this tool.',
        { gateway, redact: (s) => s, files: mem.access },
      ],
      [
        'propose_dashboard_change',
        { file: 'd.dashboard.json' },
        'Give exactly one of "changes" or "content".',
        { gateway, redact: (s) => s, files: mem.access },
      ],
      [
        'propose_dashboard_change',
        { file: 'd.dashboard.json', content: DASH, changes: [{ path: ['title'], value: 'x' }] },
        'Give exactly one of "changes" or "content".',
        { gateway, redact: (s) => s, files: mem.access },
      ],
      [
        'propose_dashboard_change',
        { file: 'd.dashboard.json', changes: [{ path: ['config', 'widgets', 0] }] },
        'The change at config.widgets[0] has no value; give value or remove: true.',
        { gateway, redact: (s) => s, files: mem.access },
      ],
    ];
    for (const [tool, args, message, ctx] of cases) {
      const r = await run(ctx, tool, args);
      assert.equal(r.ok, false, `${tool} ${JSON.stringify(args)}`);
      assert.equal(r.text, failureText(message));
    }
    assert.equal(mem.proposed.length, 0, 'nothing was proposed');
    assert.equal(mem.files['d.dashboard.json'], DASH);
  });

  it('refuses a change that makes the file invalid, listing the problems by line', async () => {
    const { gateway } = fakeGateway({});
    const mem = memoryFiles({ 'd.dashboard.json': DASH });
    const r = await run({ gateway, redact: (s) => s, files: mem.access }, 'propose_dashboard_change', {
      file: 'd.dashboard.json',
      changes: [{ path: ['workbookId'], remove: true }],
    });
    assert.equal(r.ok, false);
    assert.match(r.text, /would not be a valid dashboard, so nothing was changed:\\nline 1: /);
    assert.equal(mem.proposed.length, 0);
  });

  it('proposes edits keeping the file’s indentation and line ends, and says whether they were applied', async () => {
    const { gateway } = fakeGateway({});
    const tabbed = '{\r\n\t"workbookId": 1001,\r\n\t"title": "Sales"\r\n}\r\n';
    const mem = memoryFiles({
      't.dashboard.json': tabbed,
      'four.dashboard.json': '{\n    "workbookId": 1001\n}\n',
    });
    const ctx = { gateway, redact: (s: string) => s, files: mem.access };
    const r = await run(ctx, 'propose_dashboard_change', {
      file: 't.dashboard.json',
      changes: [
        { path: ['title'], value: 'Revenue' },
        { path: ['description'], value: 'Net' },
      ],
    });
    assert.ok(r.ok, r.text);
    assert.equal(
      mem.files['t.dashboard.json'],
      '{\r\n\t"workbookId": 1001,\r\n\t"title": "Revenue",\r\n\t"description": "Net"\r\n}\r\n',
    );
    assert.equal(mem.proposed[0]!.summary, '2 change(s) proposed by an agent');
    assert.equal(mem.proposed[0]!.display, 'shown/t.dashboard.json');
    assert.equal(mem.proposed[0]!.oldText, tabbed);
    assert.match(r.text, /^Applied: done here\nNothing was published\.\n```diff\n/);
    assert.deepEqual(r.structured, {
      applied: true,
      file: 'shown/t.dashboard.json',
      diff: mem.proposed[0]!.diff,
    });

    const four = await run(ctx, 'propose_dashboard_change', {
      file: 'four.dashboard.json',
      changes: [{ path: ['title'], value: 'T' }],
      reason: 'Name it',
    });
    assert.ok(four.ok, four.text);
    assert.equal(mem.files['four.dashboard.json'], '{\n    "workbookId": 1001,\n    "title": "T"\n}\n');
    assert.equal(mem.proposed[1]!.summary, 'Name it');

    const whole = await run(ctx, 'propose_dashboard_change', { file: 'four.dashboard.json', content: DASH });
    assert.ok(whole.ok);
    assert.equal(mem.proposed[2]!.summary, '1 change(s) proposed by an agent');

    const same = await run(ctx, 'propose_dashboard_change', { file: 'four.dashboard.json', content: DASH });
    assert.equal(same.text, 'The proposal leaves "shown/four.dashboard.json" unchanged; nothing to do.');
    assert.equal(mem.proposed.length, 3, 'an empty change is not put to the user');

    const declined = memoryFiles({ 'd.dashboard.json': DASH }, false);
    const no = await run({ gateway, redact: (s) => s, files: declined.access }, 'propose_dashboard_change', {
      file: 'd.dashboard.json',
      changes: [{ path: ['title'], value: 'X' }],
    });
    assert.match(no.text, /^Not applied: discarded\nNothing was published\./);
    assert.deepEqual(no.structured?.applied, false);
    assert.equal(declined.files['d.dashboard.json'], DASH);
  });

  it('a change can remove a value', async () => {
    const { gateway } = fakeGateway({});
    const mem = memoryFiles({ 'd.dashboard.json': DASH });
    const r = await run({ gateway, redact: (s) => s, files: mem.access }, 'propose_dashboard_change', {
      file: 'd.dashboard.json',
      changes: [{ path: ['title'], remove: true }],
    });
    assert.ok(r.ok, r.text);
    assert.equal(mem.files['d.dashboard.json'], '{\n  "workbookId": 1001\n}\n');
  });

  it('publishes only a valid file, to its workbook, and says which version', async () => {
    const f = fakeGateway({ deployments: [{ id: 3, name: 'Prod' }] });
    const mem = memoryFiles({ 'd.dashboard.json': DASH, 'bad.dashboard.json': '{"title": 5}' });
    const ctx = { gateway: f.gateway, redact: (s: string) => s, files: mem.access };
    const bad = await run(ctx, 'publish_dashboard', { file: 'bad.dashboard.json' });
    assert.equal(bad.ok, false);
    assert.match(
      bad.text,
      /shown\/bad\.dashboard\.json is not a valid dashboard, so nothing was published:\\nline 1: /,
    );
    assert.equal(f.published.length, 0);

    const ok = await run(ctx, 'publish_dashboard', { file: 'd.dashboard.json' });
    assert.ok(ok.ok, ok.text);
    assert.deepEqual(f.published, [{ dep: 3, wb: 1001, input: { workbookId: 1001, title: 'Sales' } }]);
    assert.equal(
      ok.output?.text,
      'Published "shown/d.dashboard.json" to workbook 1001 in deployment "Prod" (3): version 9, status "published". Its viewers see it now.',
    );
    assert.deepEqual(ok.structured, {
      file: 'shown/d.dashboard.json',
      workbookId: 1001,
      deploymentId: 3,
      versionNumber: 9,
      status: 'published',
      publicId: 'pub-1',
    });

    const bare = fakeGateway({ deployments: [{ id: 3, name: 'Prod' }], publish: {} });
    const r = await run({ ...ctx, gateway: bare.gateway }, 'publish_dashboard', { file: 'd.dashboard.json' });
    assert.match(r.output?.text ?? '', /: a new version, status "published"\./);
    assert.deepEqual(r.structured, {
      file: 'shown/d.dashboard.json',
      workbookId: 1001,
      deploymentId: 3,
      status: 'published',
    });
  });

  it('lists at most five problems of an invalid file, one a line', async () => {
    const { gateway } = fakeGateway({ profile: { defaultDeploymentId: 1 } });
    const many = JSON.stringify(
      { title: 5, description: 6, config: { widgets: [{ id: 1 }, { id: 2 }, { id: 3 }] } },
      null,
      2,
    );
    const mem = memoryFiles({ 'm.dashboard.json': many, 'd.dashboard.json': DASH });
    const ctx = { gateway, redact: (s: string) => s, files: mem.access };
    const pub = await run(ctx, 'publish_dashboard', { file: 'm.dashboard.json' });
    const pubLines = JSON.parse(pub.text.replace(/^[^"]*/, '')) as string;
    assert.equal(pubLines.split('\n').length, 6, pubLines);
    assert.match(pubLines.split('\n')[1]!, /^line 1: workbookId: /);
    assert.match(pubLines.split('\n')[2]!, /^line 2: title: /);
    const prop = await run(ctx, 'propose_dashboard_change', { file: 'd.dashboard.json', content: many });
    const propLines = JSON.parse(prop.text.replace(/^[^"]*/, '')) as string;
    assert.equal(propLines.split('\n').length, 6, propLines);
    assert.match(propLines.split('\n')[1]!, /^line 1: workbookId: /);
  });

  it('a new nested value follows the file’s indentation and line ends (one-line files too)', async () => {
    const { gateway } = fakeGateway({});
    const mem = memoryFiles({
      'four.dashboard.json': '{\n    "workbookId": 1001\n}\n',
      'crlf.dashboard.json': '{\r\n  "workbookId": 1001\r\n}\r\n',
      'one.dashboard.json': '{"workbookId": 1001}',
    });
    const ctx = { gateway, redact: (s: string) => s, files: mem.access };
    const nested = (file: string) =>
      run(ctx, 'propose_dashboard_change', {
        file,
        changes: [{ path: ['config'], value: { layout: { columns: 12 } } }],
      });
    assert.ok((await nested('four.dashboard.json')).ok);
    assert.equal(
      mem.files['four.dashboard.json'],
      '{\n    "workbookId": 1001,\n    "config": {\n        "layout": {\n            "columns": 12\n        }\n    }\n}\n',
    );
    assert.ok((await nested('crlf.dashboard.json')).ok);
    assert.equal(
      mem.files['crlf.dashboard.json'],
      '{\r\n  "workbookId": 1001,\r\n  "config": {\r\n    "layout": {\r\n      "columns": 12\r\n    }\r\n  }\r\n}\r\n',
    );
    const one = await nested('one.dashboard.json');
    assert.ok(one.ok, one.text);
    assert.match(
      mem.files['one.dashboard.json']!,
      /\n {2}"config": \{\n {4}"layout": \{\n {6}"columns": 12\n {4}\}\n {2}\}/,
    );
  });

  it('summaries say what will run, service text quoted', () => {
    const p = findTool('propose_dashboard_change')!;
    assert.equal(
      p.summary({ file: 'a"b.dashboard.json', changes: [{ path: ['t'], value: 1 }] }),
      'Propose 1 change to "a\\"b.dashboard.json"',
    );
    assert.equal(
      p.summary({
        file: 'x.dashboard.json',
        changes: [
          { path: ['t'], value: 1 },
          { path: ['u'], value: 2 },
        ],
        reason: 'Why\nnot',
      }),
      'Propose 2 changes to "x.dashboard.json": "Why\\nnot"',
    );
    assert.equal(
      p.summary({ file: 'x.dashboard.json', content: '{}' }),
      'Propose a new text to "x.dashboard.json"',
    );
    assert.equal(
      findTool('publish_dashboard')!.summary({ file: 'x.dashboard.json' }),
      'Publish the dashboard in "x.dashboard.json"',
    );
    const g = findTool('get_dashboard_config')!;
    assert.equal(g.summary({ workbookId: 4 }), 'Read the draft dashboard of workbook 4');
    assert.equal(
      g.summary({ workbookId: 4, source: 'published' }),
      'Read the published dashboard of workbook 4',
    );
  });
});

describe('agent tool guards: get_dashboard_config', () => {
  const run = (ctx: ToolContext, args: unknown) =>
    runTool(findTool('get_dashboard_config')!, ctx, args, { log: quiet, surface: 'test' });
  const widget = (id: string, title?: string, cfgTitle?: string) => ({
    id,
    type: 'chart',
    position: { x: 1, y: 2, w: 3, h: 4 },
    ...(title ? { title } : {}),
    ...(cfgTitle ? { config: { title: cfgTitle } } : {}),
  });

  it('returns the draft (or published) file and its widgets', async () => {
    const { gateway } = fakeGateway({
      profile: { defaultDeploymentId: 1 },
      workbook: {
        id: 7,
        name: 'Book',
        dashboardDraft: { widgets: [widget('w1', 'Plain'), widget('w2', 'Plain', 'Configured')] },
        dashboardPublished: { id: 5, config: { widgets: [widget('p1')] } },
      },
    });
    const draft = await run({ gateway, redact: (s) => s }, { workbookId: 7 });
    assert.ok(draft.ok, draft.text);
    assert.match(
      draft.output!.text,
      /^Dashboard \(draft\) of workbook "Book" \(7\) in deployment "Main" \(1\): 2 widgets\.\n```json\n\{/,
    );
    assert.deepEqual(draft.output!.table, {
      columns: ['id', 'type', 'x', 'y', 'w', 'h', 'title'],
      rows: [
        ['w1', 'chart', 1, 2, 3, 4, 'Plain'],
        ['w2', 'chart', 1, 2, 3, 4, 'Configured'],
      ],
    });
    assert.equal((draft.structured?.dashboard as { workbookId: number }).workbookId, 7);
    const pub = await run({ gateway, redact: (s) => s }, { workbookId: 7, source: 'published' });
    assert.match(
      pub.output!.text,
      /^Dashboard \(published\) of workbook "Book" \(7\) in deployment "Main" \(1\): 1 widget\.\n/,
    );
  });

  it('returns a config of exactly the limit whole, and one character more as the widget list', async () => {
    const sized = (extra: number) => {
      const wb = (pad: number) => ({
        id: 7,
        name: 'B',
        dashboardDraft: { widgets: [widget('w', 'x'.repeat(pad))] },
      });
      const len = (pad: number) => JSON.stringify(dashboardFromWorkbook(wb(pad) as never), null, 2).length;
      const pad = 20_000 - len(1) + 1 + extra;
      assert.equal(len(pad), 20_000 + extra);
      return fakeGateway({ profile: { defaultDeploymentId: 1 }, workbook: wb(pad) }).gateway;
    };
    const at = await run({ gateway: sized(0), redact: (s) => s }, { workbookId: 7 });
    assert.match(at.output!.text, /: 1 widget\.\n```json\n/);
    const over = await run({ gateway: sized(1), redact: (s) => s }, { workbookId: 7 });
    assert.match(over.output!.text, /The config is 20001 characters, too long to return whole/);
  });

  it('says when there is no config yet, and lists only the widgets of a config too long to return', async () => {
    const empty = fakeGateway({ profile: { defaultDeploymentId: 1 }, workbook: { id: 7 } });
    const r = await run({ gateway: empty.gateway, redact: (s) => s }, { workbookId: 7 });
    assert.match(
      r.output!.text,
      /^Dashboard \(draft\) of workbook 7 in deployment "Main" \(1\): 0 widgets \(no config yet\)\./,
    );
    const many = Array.from({ length: 200 }, (_, i) => widget(`w${i}`, 'x'.repeat(100)));
    const big = fakeGateway({
      profile: { defaultDeploymentId: 1 },
      workbook: { id: 7, name: 'B', dashboardDraft: { widgets: many } },
    });
    const long = await run({ gateway: big.gateway, redact: (s) => s }, { workbookId: 7 });
    assert.match(
      long.output!.text,
      /: 200 widgets\.\nThe config is \d+ characters, too long to return whole; the widgets are listed below\.$/,
    );
    assert.equal(long.output!.table!.rows.length, 200);
  });
});

describe('agent tool guards: input, logs, failures', () => {
  it('parseInput names the field at fault, or the input itself', () => {
    const tool = findTool('propose_dashboard_change')!;
    assert.throws(
      () => parseInput(tool, { file: 'x.dashboard.json', changes: [{ path: [{}] }] }),
      /^Error: Invalid input for propose_dashboard_change: changes\.0\.path\.0: /,
    );
    assert.throws(() => parseInput(tool, 5), /^Error: Invalid input for propose_dashboard_change: input: /);
  });

  it('logs the call (input included, redacted) and its end; a failed profile lookup is named', async () => {
    const lines: string[] = [];
    const log = { info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) };
    const { gateway } = fakeGateway({
      profile: () => {
        throw new Error('no profile');
      },
    });
    const tool = findTool('get_dashboard_config')!;
    const r = await runTool(
      tool,
      { gateway, redact: (s) => s.replaceAll('s3cret', '[R]') },
      { workbookId: 's3cret' },
      { log, surface: 'x' },
    );
    assert.equal(r.ok, false);
    assert.equal(
      lines[0],
      '[x] tool get_dashboard_config called (profile "(no profile)"): {"workbookId":"[R]"}',
    );
    assert.match(lines[1]!, /^\[x\] tool get_dashboard_config failed after (\d+) ms: Invalid input/);
    assert.ok(Number(/after (\d+) ms/.exec(lines[1]!)![1]) < 1e9, 'a duration, not a timestamp');
    assert.ok(!lines.join('\n').includes('s3cret'));

    // No input at all is an empty object, logged as nothing.
    lines.length = 0;
    const ok = fakeGateway({ profile: { defaultDeploymentId: 1 } });
    const list = await runTool(
      findTool('list_deployments')!,
      { gateway: ok.gateway, redact: (s) => s },
      undefined,
      { log, surface: 'x' },
    );
    assert.ok(list.ok, list.text);
    assert.equal(lines[0], '[x] tool list_deployments called (profile "P"): ');
    assert.match(lines[1]!, /^\[x\] tool list_deployments done in (\d+) ms, 1 rows, hasMore false$/);
    assert.ok(Number(/in (\d+) ms/.exec(lines[1]!)![1]) < 1e9, 'a duration, not a timestamp');
    // A tool that does not page: the line ends with the duration.
    lines.length = 0;
    const withBook = fakeGateway({ profile: { defaultDeploymentId: 1 }, workbook: { id: 7 } });
    await runTool(
      findTool('get_dashboard_config')!,
      { gateway: withBook.gateway, redact: (s) => s },
      { workbookId: 7 },
      { log, surface: 'x' },
    );
    assert.match(lines[1]!, /^\[x\] tool get_dashboard_config done in \d+ ms$/);
  });
});

describe('agent tool guards: service text reaches the agent as data', () => {
  it('quote escapes what JSON leaves raw, as \\u sequences', () => {
    assert.equal(quote('a\u2028b\u202ec\u0085'), '"a\\u2028b\\u202ec\\u0085"');
    assert.equal(quote('x\ny'), '"x\\ny"');
  });

  it('fenced: a fence longer than any backtick run in the content', () => {
    assert.equal(fenced('a'), '```\na\n```');
    assert.equal(fenced('x ```` y `` z', 'sql'), '`````sql\nx ```` y `` z\n`````');
  });

  it('cellText: empty for nothing, JSON for objects, one line, redacted before it is cut', () => {
    const r = (s: string) => s.replaceAll('tok-123456', '[REDACTED]');
    assert.equal(cellText(null), '');
    assert.equal(cellText(undefined), '');
    assert.equal(cellText(0), '0');
    assert.equal(cellText(false), 'false');
    assert.equal(cellText({ a: 'tok-123456' }, r), '{"a":"[REDACTED]"}');
    assert.equal(cellText(['x', 1]), '["x",1]');
    assert.equal(cellText('a\nb\u202ec'), 'a b\\u202ec');
    const long = cellText(`${'x'.repeat(195)}tok-123456${'y'.repeat(50)}`, r);
    assert.ok(!long.includes('tok-'), long);
    assert.ok(long.length <= 201, String(long.length));
  });

  it('markdownTable escapes pipes and backslashes; no columns, no table', () => {
    assert.equal(markdownTable({ columns: [], rows: [[1]] }), '');
    assert.equal(
      markdownTable({ columns: ['a|b', 'c'], rows: [['x\\|y', null]] }),
      '| a\\|b | c |\n| --- | --- |\n| x\\\\\\|y |  |',
    );
  });

  it('renderText: summary, paging facts, then the table only when it has rows', () => {
    const redact = (s: string) => s.replaceAll('SECRET', '[R]');
    const table = { columns: ['n'], rows: [['SECRET']] };
    assert.equal(
      renderText(
        {
          text: 'Found SECRET',
          page: { returned: 1, hasMore: true, total: 9, nextCursor: 'c1', nextOffset: 1 },
          table,
        },
        redact,
      ),
      'Found [R]\n\nreturned: 1, hasMore: true, total: 9, nextCursor: c1, nextOffset: 1\n\n| n |\n| --- |\n| [R] |',
    );
    assert.equal(
      renderText(
        { text: 'T', page: { returned: 0, hasMore: false }, table: { columns: ['n'], rows: [] } },
        redact,
      ),
      'T\n\nreturned: 0, hasMore: false',
    );
    assert.equal(
      renderText({ text: 'T', page: { returned: 0, hasMore: false, total: 0, nextOffset: 0 } }, redact),
      'T\n\nreturned: 0, hasMore: false, total: 0, nextOffset: 0',
    );
    assert.equal(renderText({ text: 'T' }, redact), 'T');
  });

  it('structured: data, paging and table, every string redacted, other values kept', () => {
    const redact = (s: string) => s.replaceAll('SECRET', '[R]');
    assert.deepEqual(
      structured(
        {
          text: 'ignored',
          data: { a: 'SECRET', n: 1, nested: [{ b: 'SECRET' }], nil: null },
          page: { returned: 1, hasMore: false },
          table: { columns: ['c'], rows: [['SECRET', 2]] },
        },
        redact,
      ),
      {
        a: '[R]',
        n: 1,
        nested: [{ b: '[R]' }],
        nil: null,
        returned: 1,
        hasMore: false,
        table: { columns: ['c'], rows: [['[R]', 2]] },
      },
    );
    assert.deepEqual(structured({ text: 't' }, redact), {});
  });

  it('named quotes a service name; ids stay plain', () => {
    assert.equal(named('Sales "Q1"', 3), '"Sales \\"Q1\\"" (3)');
    assert.equal(named('Sales', 'abc'), '"Sales" ("abc")');
    assert.equal(named('', 3), '3');
    assert.equal(named(undefined, 'abc'), '"abc"');
    assert.equal(named(42, 3), '3');
  });

  it('resolveDeployment: given, else the default, else the only one; none or several say what to do', async () => {
    const two = fakeGateway({
      deployments: [
        { id: 1, name: 'A' },
        { id: 2, name: 'B' },
      ],
    }).gateway;
    assert.deepEqual(await resolveDeployment(two, 2), { id: 2, name: 'B' });
    assert.deepEqual(await resolveDeployment(two, 9), { id: 9, name: 'deployment 9' });
    await assert.rejects(
      resolveDeployment(two, undefined),
      (e: Error) =>
        e.message ===
        'Say which deployment: pass deploymentId (list_deployments lists them; profile "P" has no default deployment).',
    );
    const withDefault = fakeGateway({
      profile: { defaultDeploymentId: 2 },
      deployments: [
        { id: 1, name: 'A' },
        { id: 2, name: 'B' },
      ],
    }).gateway;
    assert.deepEqual(await resolveDeployment(withDefault, undefined), { id: 2, name: 'B' });
    const one = fakeGateway({ deployments: [{ id: 4, name: 'Only' }] }).gateway;
    assert.deepEqual(await resolveDeployment(one, undefined), { id: 4, name: 'Only' });
    const unnamed = fakeGateway({ deployments: [{ id: 4 } as never] }).gateway;
    assert.deepEqual(await resolveDeployment(unnamed, undefined), { id: 4, name: 'deployment 4' });
    const none = fakeGateway({ deployments: [] }).gateway;
    await assert.rejects(
      resolveDeployment(none, undefined),
      (e: Error) => e.message === 'This profile can see no deployment.',
    );
  });
});
