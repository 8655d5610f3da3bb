// The command table (src/commands.ts) and package.json contributes.commands match both ways, and the
// foundation's manifest entries are tidy (category, settings with description and default).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, COMMAND_CATEGORY, type CommandSpec } from '../../src/commands';

interface ManifestCommand {
  command: string;
  title: string;
  category?: string;
}

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: {
    commands: ManifestCommand[];
    configuration: { properties: Record<string, Record<string, unknown>> };
    menus?: Record<string, { command?: string }[]>;
    viewsWelcome?: { view: string; contents: string }[];
    viewsContainers?: { activitybar?: { id: string; icon: string }[] };
  };
};

describe('command table', () => {
  const table = Object.values(COMMANDS);
  const contributed = manifest.contributes.commands;

  it('has unique ids', () => {
    const ids = table.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('lists every command contributed in package.json, with the same title', () => {
    const byId = new Map<string, CommandSpec>(table.map((c) => [c.id, c]));
    assert.ok(contributed.length > 0, 'package.json contributes commands');
    for (const c of contributed) {
      const entry = byId.get(c.command);
      assert.ok(entry, `${c.command} is in package.json but not in src/commands.ts`);
      assert.equal(entry.title, c.title, `title of ${c.command}`);
    }
  });

  it('contributes every command of the table, in the "Dashboard Platform" category', () => {
    const byId = new Map(contributed.map((c) => [c.command, c]));
    assert.ok(table.length > 100, 'the table holds the commands');
    for (const c of table) {
      const entry = byId.get(c.id);
      assert.ok(entry, `${c.id} is in src/commands.ts but not in package.json`);
      assert.equal(entry.category, COMMAND_CATEGORY, `category of ${c.id}`);
      assert.match(c.id, /^dashboardPlatform\.([a-z][A-Za-z]*\.)?[a-z][A-Za-z]*$/);
    }
  });

  it('menus only name contributed commands', () => {
    const ids = new Set(contributed.map((c) => c.command));
    let named = 0;
    for (const [menu, items] of Object.entries(manifest.contributes.menus ?? {})) {
      for (const item of items) {
        if (!item.command) continue;
        named++;
        assert.ok(ids.has(item.command), `menu ${menu} names unknown ${item.command}`);
      }
    }
    assert.ok(named > 0, 'the menus name commands');
  });

  it('viewsWelcome links only contributed commands', () => {
    const ids = new Set(contributed.map((c) => c.command));
    let links = 0;
    for (const w of manifest.contributes.viewsWelcome ?? []) {
      for (const m of w.contents.matchAll(/\(command:([\w.]+)/g)) {
        links++;
        assert.ok(ids.has(m[1] ?? ''), `viewsWelcome links unknown ${m[1]}`);
      }
    }
    assert.ok(links > 0, 'the welcome views link commands');
  });
});

describe('manifest settings', () => {
  it('every dashboardPlatform.* setting has a description and a default', () => {
    const settings = Object.entries(manifest.contributes.configuration.properties);
    assert.ok(settings.length > 0, 'package.json contributes settings');
    for (const [key, spec] of settings) {
      assert.match(key, /^dashboardPlatform\./);
      assert.ok(spec.description || spec.markdownDescription, `${key} has no description`);
      assert.ok('default' in spec, `${key} has no default`);
    }
  });

  it('declares the foundation settings and the activity bar container', () => {
    const props = manifest.contributes.configuration.properties;
    for (const key of [
      'dashboardPlatform.profiles',
      'dashboardPlatform.activeProfile',
      'dashboardPlatform.extraCaCertificates',
      'dashboardPlatform.sandbox.rows',
    ]) {
      assert.ok(props[key], key);
    }
    const container = manifest.contributes.viewsContainers?.activitybar?.find(
      (c) => c.id === 'dashboardPlatform',
    );
    assert.equal(container?.icon, 'media/dashboard-platform.svg');
  });

  it('the profile settings schema has no place for secrets', () => {
    const schema = JSON.stringify(
      manifest.contributes.configuration.properties['dashboardPlatform.profiles'],
    );
    assert.doesNotMatch(schema, /"(token|apiKey|platformToken|dataApiToken|aiApiKey|password|secret)"\s*:/i);
  });
});
