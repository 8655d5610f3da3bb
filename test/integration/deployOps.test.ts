// A deployment's operations in a real VS Code against the sandbox, driven as a user would: the dbt
// syncs under a deployment (a run's log streamed into its output channel, cancel on the server, the
// result and generated files read-only), dashboard export, env variables, health (a failed build on
// the deployment's row, versions, pods, logs followed until stopped) and environment tokens.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { screenshot, waitFor } from './harness';
import { explorerSuite } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the nodes are the extension's own objects */
type Node = any;

const C = 'dashboardPlatform.explorer.';
const DBT = 'Dashboard Platform: dbt sync';
const LOGS = 'Dashboard Platform: Deployment Logs';
const run = (id: string, ...args: unknown[]): Promise<any> =>
  Promise.resolve(vscode.commands.executeCommand(`${C}${id}`, ...args));

let api: any;
let ex: any;
let base: string;
let admin: string;

async function control(p: string): Promise<any> {
  return (await fetch(`${base}${p}`)).json();
}
async function platform(p: string): Promise<any> {
  const res = await fetch(`${base}/api${p}`, { headers: { authorization: `Bearer ${admin}` } });
  assert.equal(res.status, 200, `GET ${p} -> ${res.status}`);
  return res.json();
}
const children = (node?: Node): Promise<Node[]> => ex.provider.getChildren(node);
const ops = () => api.deployments;
const transcript = (channel: string): string[] => ops().transcript(channel);

async function deployment(id: number): Promise<Node> {
  const kids = await children(ex.provider.roots.deployments);
  const d = kids.find((n) => n.kind === 'deployment' && n.deploymentId === id);
  assert.ok(d, `deployment ${id} is listed`);
  return d;
}

/** The dbt sync rows of a deployment, fetched again. */
async function runs(id: number): Promise<Node[]> {
  const list = (await deployment(id)).opsChild('dbtSyncs');
  ex.provider.refresh(list);
  return (await children(list)).filter((n) => n.kind === 'dbtSync');
}

describe('deployment operations', function () {
  this.timeout(120_000);

  explorerSuite((s) => ({ api, ex, base, admin } = s), { refresh: true });

  describe('dbt sync', () => {
    it('lists past syncs under the deployment and shows a finished run’s log from its row', async () => {
      const rows = await runs(1);
      const statuses = rows.map((n) => n.data.status);
      assert.ok(statuses.includes('COMPLETED') && statuses.includes('FAILED'), statuses.join(','));
      const failed = rows.find((n) => n.data.status === 'FAILED');
      const item = failed.toTreeItem();
      assert.match(String(item.label), /dbt-nightly · failed/);
      assert.equal(item.contextValue, 'dp.dbtSync.finished');
      // A click on the row shows its log.
      assert.equal(item.command.command, `${C}dbtShowLogs`);
      const lines: string[] = await run('dbtShowLogs', ...item.command.arguments);
      assert.ok(
        lines.some((l) => /ERROR \[dbt-compile\] dbt compile failed/.test(l)),
        lines.join('\n'),
      );
      assert.match(lines[0]!, /"Analytics"/, 'the header names the deployment');
    });

    it('from the palette: picks a run by branch and status', async () => {
      ex.script(['dbt-preview · completed']);
      const lines: string[] = await run('dbtShowLogs', { deploymentId: 1 });
      assert.ok(
        lines.some((l) => /Keeping 5 generated files for download/.test(l)),
        lines.join('\n'),
      );
    });

    it('streams a running sync’s log into the output channel, then opens its result and files read-only', async () => {
      const before = transcript(DBT).length;
      const started = run('dbtSync', { deploymentId: 1, branchName: 'dbt-review', output: 'files' });
      // While it runs, the log grows line by line (the sandbox moves one stage a step).
      await waitFor('the compile stage in the log', () =>
        transcript(DBT)
          .slice(before)
          .some((l) => l.includes('Running dbt compile')),
      );
      assert.ok(
        !transcript(DBT)
          .slice(before)
          .some((l) => l.includes('Sync completed')),
        'the log is read while the sync runs',
      );
      await screenshot('dbt-sync-logs', 0);
      const job = await started;
      assert.equal(job?.status, 'COMPLETED');
      const log = transcript(DBT).slice(before);
      const order = [
        'Running dbt deps',
        'Running dbt compile',
        'Wrote model/cubes/dbt/orders.yml',
        'Sync completed',
      ];
      const at = order.map((m) => log.findIndex((l) => l.includes(m)));
      assert.ok(
        at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1]!)),
        `in order: ${at.join(',')}`,
      );
      assert.equal(new Set(log).size, log.length, 'no line written twice');

      const row = (await runs(1)).find((n) => n.data.branchName === 'dbt-review');
      assert.ok(row, 'the new run is listed');
      assert.equal(row.toTreeItem().contextValue, 'dp.dbtSync.completed');
      const doc: vscode.TextDocument = await run('dbtOpenResult', row);
      const result = JSON.parse(doc.getText());
      assert.equal(result.generatedFiles.length, 5);
      const files: vscode.TextDocument[] = await run('dbtOpenGeneratedFiles', {
        deploymentId: 1,
        syncJobId: row.data.syncJobId,
        paths: ['model/cubes/dbt/orders.yml', 'model/cubes/dbt/customers.yml'],
      });
      assert.equal(files.length, 2);
      for (const f of files) {
        assert.equal(f.uri.scheme, 'dashboard-platform-dbt', 'a read-only virtual document');
        assert.match(f.getText(), /^cubes:\n {2}- name: (orders|customers)/);
      }
    });

    it('asks for the branch in a picker of the deployment’s branches by name, "Other…" last', async () => {
      const branches = (await (
        await fetch(`${base}/build/api/v1/deployments/1/branches?first=100`, {
          headers: { authorization: `Bearer ${admin}` },
        })
      ).json()) as { items: { name: string }[] };
      const names = branches.items.map((b) => b.name);
      assert.ok(names.includes('staging'), 'the sandbox deployment has a staging branch');
      // Picked from the list (files kept for review: nothing is committed).
      let s = ex.script(['staging', 'Keep the generated files for review (do not commit)']);
      let job = await run('dbtSync', { deploymentId: 1 });
      assert.deepEqual(s.offered.get('Start dbt Sync (1/2)'), ['Default branch', ...names, 'Other…']);
      assert.equal(job?.status, 'COMPLETED');
      let runsNow = await runs(1);
      assert.ok(runsNow.some((n) => n.data.syncJobId === job.syncJobId && n.data.branchName === 'staging'));
      // "Other…" asks for a new branch's name, refusing one with spaces.
      s = ex.script(['Other…', 'dbt new', 'dbt-new', 'Keep the generated files for review (do not commit)']);
      job = await run('dbtSync', { deploymentId: 1 });
      assert.deepEqual(s.refusals, ['A branch name has no spaces.']);
      runsNow = await runs(1);
      assert.ok(runsNow.some((n) => n.data.syncJobId === job.syncJobId && n.data.branchName === 'dbt-new'));
    });

    it('still offers the default branch and Other… when the branches cannot be listed, saying why', async () => {
      await fetch(`${base}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          family: 'platform',
          method: 'GET',
          route: '/branches',
          status: 403,
          times: 1,
        }),
      });
      try {
        // A name with a space is refused under the box; the script then ends (Escape).
        const s = ex.script(['no such branch']);
        assert.equal(await run('dbtSync', { deploymentId: 1 }), undefined, 'dismissed: nothing started');
        assert.deepEqual(s.offered.get('Start dbt Sync (1/2)'), ['Default branch', 'Other…']);
        assert.match(
          s.rows.get('Start dbt Sync (1/2)')[0].detail,
          /The deployment's branches could not be listed: .*403|forbidden|permission/i,
        );
      } finally {
        await fetch(`${base}/__sandbox/faults`, { method: 'DELETE' });
      }
    });

    it('cancels a running sync on the server from its row', async () => {
      const started = run('dbtSync', { deploymentId: 1, branchName: 'slow' });
      const row = await waitFor('the running sync in the list', async () =>
        (await runs(1)).find((n) => n.data.branchName === 'slow' && n.data.status === 'RUNNING'),
      );
      assert.equal(row.toTreeItem().contextValue, 'dp.dbtSync.running');
      const s = ex.script([]);
      assert.equal(await run('dbtCancel', row), 'cancelled');
      assert.match(s.asked[0], /Cancel the dbt sync of branch slow on "Analytics"\?/);
      const state = await control('/__sandbox/state');
      assert.ok(state.dbtJobs[row.data.syncJobId].cancelledAt, 'the server recorded the cancel');
      // The follow sees the end: the status API's FAILED of a run cancelled here is said as the
      // cancel (Cancel dbt Sync's one message; no failure), and the log ends saying cancelled.
      assert.equal((await started).status, 'CANCELLED');
      assert.match(transcript(DBT).at(-1) ?? '', /^── CANCELLED: Cancelled on request/);
      const after = (await runs(1)).find((n) => n.data.syncJobId === row.data.syncJobId);
      assert.equal(after.data.status, 'CANCELLED');
    });
  });

  describe('dashboard export', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dp-export-'));
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('exports a dashboard picked by name as PDF, saved where asked', async () => {
      const wbs = (await platform('/v1/deployments/1/workbooks?first=10')).items;
      const wb = wbs.find((w: any) => w.publishedDashboard);
      const target = path.join(dir, 'board.pdf');
      ex.script([wb.publishedDashboard.title, 'pdf']);
      const uri: vscode.Uri = await run('exportDashboard', { deploymentId: 1, target, open: false });
      assert.equal(uri.fsPath, target);
      const bytes = fs.readFileSync(target);
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.ok(bytes.includes(Buffer.from(wb.publishedDashboard.title.replace(/[^\x20-\x7e]/g, '?'))));
      const jobs = Object.values((await control('/__sandbox/state')).exports) as any[];
      assert.ok(
        jobs.some(
          (j) => j.dashboardId === wb.publishedDashboard.id && j.format === 'pdf' && j.downloaded === 1,
        ),
      );
    });

    it('exports a workbook’s dashboard as PNG and opens it', async () => {
      const wbs = (await platform('/v1/deployments/1/workbooks?first=10')).items;
      const wb = wbs.filter((w: any) => w.publishedDashboard)[1];
      const target = path.join(dir, 'board.png');
      await run('exportDashboard', {
        deploymentId: 1,
        dashboardId: wb.publishedDashboard.id,
        format: 'png',
        target,
      });
      assert.deepEqual([...fs.readFileSync(target).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
      await waitFor('the image open in an editor', () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input as any;
        return input?.uri?.fsPath === target;
      });
    });
  });

  describe('env variables', () => {
    it('sets a new variable (name checked), changes it, and keeps values masked in the tree', async () => {
      const list = (await deployment(1)).list('envVars');
      const s = ex.script(['1BAD', 'NEW_FLAG', 'first-value-123']);
      assert.equal(await run('setEnvVar', list), 'NEW_FLAG');
      assert.equal(s.refusals.length, 1, 'the bad name was refused where it was typed');
      let vars = (await platform('/v1/deployments/1/env-vars?first=100')).items;
      assert.equal(vars.find((v: any) => v.name === 'NEW_FLAG')?.value, 'first-value-123');
      const node = await waitFor('the new variable in the tree', async () =>
        (await children(list)).find((n) => n.kind === 'envVar' && n.data.name === 'NEW_FLAG'),
      );
      const item = node.toTreeItem();
      assert.equal(item.description, '••••');
      assert.ok(!JSON.stringify(item).includes('first-value-123'), 'the row never shows the value');
      ex.script(['second-value-456']);
      await run('changeEnvVar', node);
      vars = (await platform('/v1/deployments/1/env-vars?first=100')).items;
      assert.equal(vars.find((v: any) => v.name === 'NEW_FLAG')?.value, 'second-value-456');
      const writes = (await control('/__sandbox/state')).envVarWrites;
      assert.deepEqual(
        writes.slice(-2).map((w: any) => w.names),
        [['NEW_FLAG'], ['NEW_FLAG']],
      );
    });

    it('reveals a value only on request; a secret-named one says the server keeps it', async () => {
      const list = (await deployment(1)).list('envVars');
      ex.provider.refresh(list);
      const kids = await children(list);
      const plain = kids.find((n) => n.data.name === 'CUBEJS_DB_NAME');
      const s = ex.script([], false);
      assert.equal(await run('revealEnvVar', plain), 'shown');
      assert.match(
        s.asked[0],
        /^CUBEJS_DB_NAME on "Analytics"$/,
        'the modal title names, never shows, the value',
      );
      const secret = kids.find((n) => n.data.name === 'CUBEJS_DB_PASS');
      assert.equal(await run('revealEnvVar', secret), 'masked');
    });
  });

  describe('health', () => {
    it('shows a failed build on the deployment’s row, with the reason in its tooltip', async () => {
      const failed = await deployment(3);
      // The fixed row carries the context its menu items are keyed on.
      assert.equal(failed.opsChild('health').toTreeItem().contextValue, 'dp.health');
      await children(failed.opsChild('health'));
      const item = failed.toTreeItem();
      assert.match(String(item.description), /build failed/);
      assert.match(item.tooltip.value, /spend\\_usd/);
      const healthy = await deployment(1);
      await children(healthy.opsChild('health'));
      assert.doesNotMatch(String(healthy.toTreeItem().description), /build failed/);
    });

    it('lists build status, versions and pods under Health', async () => {
      const kids = await children((await deployment(3)).opsChild('health'));
      const build = kids.find((n) => n.id.endsWith('/build'));
      assert.match(String(build.toTreeItem().label), /Build: error/);
      const doc: vscode.TextDocument = await run('showBuildStatus', build);
      assert.equal(JSON.parse(doc.getText()).status, 'error');
      const versions = (await children(kids.find((n) => n.listSpec?.kind === 'versions'))).filter(
        (n: Node) => n.kind === 'version',
      );
      assert.equal(versions.length, 3);
      assert.deepEqual(
        versions.filter((v: Node) => v.data.isCurrent).map((v: Node) => v.data.version),
        ['1.1.18'],
      );
      const pods = (await children(kids.find((n) => n.listSpec?.kind === 'pods'))).filter(
        (n: Node) => n.kind === 'pod',
      );
      const crashing = pods.find((p: Node) => p.data.status === 'CrashLoopBackOff');
      assert.ok(crashing, 'the failing pod is listed');
      // A pod's row shows that pod's log.
      const item = crashing.toTreeItem();
      const n: number = await run('showDeploymentLogs', ...item.command.arguments);
      assert.ok(n > 0);
      const last = transcript(LOGS).slice(-n);
      assert.ok(
        last.every((l) => l.includes(`[${crashing.data.name}]`)),
        'only that pod',
      );
      assert.ok(last.some((l) => l.includes('spend_usd')));
    });

    it('tails the logs and follows them until stopped', async () => {
      const tail: number = await run('showDeploymentLogs', { deploymentId: 1 });
      assert.ok(tail > 0);
      const before = transcript(LOGS).length;
      const following = run('followDeploymentLogs', { deploymentId: 1 });
      // Wait for lines written after the first read: the sandbox logs one line a second.
      await waitFor(
        'new log lines',
        () => (transcript(LOGS).length > before + tail + 1 ? true : undefined),
        20_000,
      );
      assert.equal(await run('stopFollowingLogs'), 1);
      const written: number = await following;
      assert.ok(written > tail, `${written} lines > the ${tail} of the tail`);
      assert.match(transcript(LOGS).at(-1)!, /stopped following logs of "Analytics"/);
      const lines = transcript(LOGS).slice(before + 1, -1);
      assert.equal(new Set(lines).size, lines.length, 'no line twice');
    });
  });

  describe('environment tokens', () => {
    it('creates a token shown once, then lists it without showing it', async () => {
      const envs = await children((await deployment(1)).list('environments'));
      const env = envs.find((n) => n.kind === 'environment' && n.data.type === 'production');
      const before = (await children(env)).filter((n: Node) => n.kind === 'envToken').length;
      const s = ex.script(['not json', '{"role": "viewer"}', '600'], false);
      const res = await run('createEnvironmentToken', env);
      assert.equal(res.copied, false);
      assert.ok(res.expiresAt, 'the caller learns when it expires');
      assert.equal(s.refusals.length, 1, 'bad JSON refused where it was typed');
      const created = (await control('/__sandbox/state')).environmentTokens[`1/${env.data.id}`].at(-1);
      assert.deepEqual(created.security_context, { role: 'viewer' });
      assert.ok(!JSON.stringify(res).includes(created.token), 'the command never returns the token');
      assert.match(s.asked.at(-1), /Token created for the production environment of "Analytics"/);
      assert.ok(!s.asked.some((q: string) => q.includes(created.token)), 'the token is not in any title');
      const tokens = await waitFor('the new token in the list', async () => {
        const t = (await children(env)).filter((n: Node) => n.kind === 'envToken');
        return t.length === before + 1 ? t : undefined;
      });
      for (const t of tokens)
        assert.ok(!JSON.stringify(t.toTreeItem()).includes(t.data.token), 'rows hide tokens');
    });
  });
});
