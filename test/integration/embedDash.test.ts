// Embedding a published dashboard inside a real VS Code against the sandbox: Signed Embedding turned
// off (after a modal naming the dashboard) and on again, and Dashboard Comments as an embed user of
// a tenant: threads shown with author names, a comment posted with an @mention picked by name, then
// resolved. Effects are read back from the sandbox (GET /__sandbox/state).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { adminSuite } from './sandboxSuite';

/* eslint-disable @typescript-eslint/no-explicit-any -- the API is the extension's own object */

const C = 'dashboardPlatform.explorer.';
const DASHBOARD = 'pub1x0000001';

let api: any;
let ex: any;
let base: string;

async function state(): Promise<any> {
  return (await fetch(`${base}/__sandbox/state`)).json();
}
async function allowEmbed(): Promise<boolean> {
  const res = await fetch(`${base}/api/v1/deployments/1/workbooks?first=200`, {
    headers: { authorization: `Bearer ${(await api.sandbox.start()).tokens.admin}` },
  });
  const items = ((await res.json()) as any).items as any[];
  return items.find((w) => w.publishedDashboard?.publicId === DASHBOARD).publishedDashboard.allowEmbed;
}

describe('embedding a published dashboard: signed embedding and comments', function () {
  this.timeout(180_000);

  adminSuite((s) => ({ api, ex, base } = s));

  it('turns signed embedding off after a modal naming the dashboard, and on again', async () => {
    const p = ex.script([]);
    const off = await vscode.commands.executeCommand<any>(`${C}toggleSignedEmbedding`, {
      deploymentId: 1,
      publicId: DASHBOARD,
      allowEmbed: false,
    });
    assert.deepEqual(off, { publicId: DASHBOARD, allowEmbed: false });
    assert.match(p.asked[0], /^Turn signed embedding off for ".+"\?$/);
    assert.equal(await allowEmbed(), false, 'the server holds it off');
    const q = ex.script([]);
    const on = await vscode.commands.executeCommand<any>(`${C}toggleSignedEmbedding`, {
      deploymentId: 1,
      publicId: DASHBOARD,
    });
    assert.equal(on.allowEmbed, true, 'the other way from now');
    assert.deepEqual(q.asked, [], 'turning it on asks nothing');
    assert.equal(await allowEmbed(), true);
  });

  it('shows the threads as an embed user with names, posts a comment with an @mention picked by name, and resolves it', async () => {
    const label = '$(comment) @acme-user2 Looks good to me';
    // The box starts with the picked mentions; the scripted answer is the box's whole text.
    const p = ex.script([
      'acme',
      'acme-user1',
      'new',
      ['acme-user2'],
      '@acme-user2 Looks good to me',
      label,
      'resolve',
    ]);
    const shown = await vscode.commands.executeCommand<any[]>(`${C}dashboardComments`, {
      deploymentId: 1,
      publicId: DASHBOARD,
    });
    const title = p.asked.find((t: string) => t.startsWith('Comments on '));
    assert.match(title, /as acme-user1 \(acme\)$/);
    const rows = p.rows.get(title) as { label: string; description?: string }[];
    const seeded = rows.find((r) => /refund filter/.test(r.label));
    assert.ok(seeded, 'the seeded thread is listed');
    assert.match(seeded.description ?? '', /^you · .+ · 1 reply · open$/, 'author, date, replies, state');
    const offered = p.offered.get('New comment: mention (optional)') as string[];
    // The seeded users by name (suites before this one may provision more into the shared sandbox).
    assert.deepEqual(
      offered.filter((n) => /^acme-/.test(n)),
      ['acme-user2', 'acme-user3'],
      'mentionable users by name',
    );
    assert.ok(!offered.includes('acme-user1'), 'not the commenting user');
    const mine = (await state()).embedComments.comments.find(
      (x: any) => x.body === '@acme-user2 Looks good to me',
    );
    assert.ok(mine, 'posted with the mention');
    assert.ok(mine.resolvedAt, 'and resolved');
    assert.ok(!shown.some((t) => t.root.id === mine.id), 'a resolved thread leaves the open list');
  });
});
