// Completions, hover and diagnostics for query cells, from the /v1/meta of what the notebook runs
// on: its deployment, or its dev branch (checked again when that branch's model is rebuilt).
import * as vscode from 'vscode';
import type { DataClient } from '../api/dataClient';
import { notebookDevBranch } from './devBranch';
import { NOTEBOOK_TYPE, PLATFORM_SQL } from './notebookFormat';
import {
  checkLoadQuery,
  FILTER_OPERATORS,
  fromClauseInsertion,
  jsonMemberContext,
  MemberIndex,
  sqlCompletionContext,
  type MemberInfo,
} from './memberIndex';

const SELECTOR: vscode.DocumentSelector = [
  { notebookType: NOTEBOOK_TYPE, language: PLATFORM_SQL },
  { notebookType: NOTEBOOK_TYPE, language: 'sql' },
  { notebookType: NOTEBOOK_TYPE, language: 'json' },
];

type ClientFor = (nb: vscode.NotebookDocument) => Promise<DataClient>;

function notebookOf(doc: vscode.TextDocument): vscode.NotebookDocument | undefined {
  return vscode.workspace.notebookDocuments.find((nb) => nb.getCells().some((c) => c.document === doc));
}

export function registerMemberProviders(
  clientFor: ClientFor,
  onBranchRebuilt?: vscode.Event<{ deploymentId: number; branch: string }>,
): vscode.Disposable[] {
  const index = async (doc: vscode.TextDocument): Promise<MemberIndex | undefined> => {
    const nb = notebookOf(doc);
    if (!nb) return undefined;
    try {
      return new MemberIndex(await (await clientFor(nb)).meta());
    } catch {
      return undefined;
    }
  };
  const diagnostics = vscode.languages.createDiagnosticCollection('dashboardPlatform.loadQuery');
  const validate = async (doc: vscode.TextDocument) => {
    if (doc.languageId !== 'json' || !notebookOf(doc)) return;
    const idx = await index(doc);
    if (!idx) return;
    diagnostics.set(
      doc.uri,
      checkLoadQuery(doc.getText(), idx).map((p) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(doc.positionAt(p.start), doc.positionAt(p.end)),
          p.message,
          vscode.DiagnosticSeverity.Error,
        );
        d.source = 'Dashboard Platform';
        return d;
      }),
    );
  };
  const timers = new Map<string, NodeJS.Timeout>();
  const schedule = (doc: vscode.TextDocument) => {
    const k = doc.uri.toString();
    clearTimeout(timers.get(k));
    timers.set(
      k,
      setTimeout(() => void validate(doc), 300),
    );
  };
  const recheck = (nb: vscode.NotebookDocument) => nb.getCells().forEach((c) => schedule(c.document));
  return [
    diagnostics,
    // The notebook moved to another deployment or dev branch: its members are another meta's.
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.metadata && e.notebook.notebookType === NOTEBOOK_TYPE) recheck(e.notebook);
    }),
    ...(onBranchRebuilt
      ? [
          onBranchRebuilt(({ deploymentId, branch }) => {
            for (const nb of vscode.workspace.notebookDocuments) {
              if (nb.notebookType !== NOTEBOOK_TYPE || notebookDevBranch(nb) !== branch) continue;
              const d = (nb.metadata as Record<string, unknown> | undefined)?.deploymentId;
              if (d === undefined || d === deploymentId) recheck(nb);
            }
          }),
        ]
      : []),
    vscode.workspace.onDidChangeTextDocument((e) => schedule(e.document)),
    vscode.workspace.onDidOpenTextDocument(schedule),
    vscode.workspace.onDidOpenNotebookDocument((nb) => nb.getCells().forEach((c) => schedule(c.document))),
    vscode.languages.registerCompletionItemProvider(
      SELECTOR,
      {
        async provideCompletionItems(doc, pos) {
          const idx = await index(doc);
          if (!idx) return [];
          const before = doc.getText(new vscode.Range(new vscode.Position(0, 0), pos));
          const items: vscode.CompletionItem[] = [];
          if (doc.languageId === 'json') {
            const ctx = jsonMemberContext(before);
            if (!ctx) return [];
            if (/"operator"\s*:\s*"?[\w]*$/.test(before)) {
              return FILTER_OPERATORS.map(
                (o) => new vscode.CompletionItem(o, vscode.CompletionItemKind.Operator),
              );
            }
            for (const m of idx.members.values()) {
              if (ctx === 'measures' && m.kind !== 'measure') continue;
              if ((ctx === 'dimensions' || ctx === 'timeDimensions') && m.kind !== 'dimension') continue;
              if (ctx === 'timeDimensions' && m.type !== 'time') continue;
              if (ctx === 'segments' && m.kind !== 'segment') continue;
              const it = new vscode.CompletionItem(
                m.name,
                m.kind === 'measure' ? vscode.CompletionItemKind.Field : vscode.CompletionItemKind.Property,
              );
              it.detail = `${m.kind}${m.type ? ` · ${m.type}` : ''}`;
              it.documentation = m.description ?? m.title;
              items.push(it);
            }
            return items;
          }
          // SQL: cube names after FROM/JOIN; a cube's columns after `cube.` or `alias.`; elsewhere
          // the members of the cubes the query reads, by their column names (all cubes' members,
          // qualified, while it reads none yet), then the cube names.
          const ctx = sqlCompletionContext(before, doc.getText(), idx);
          const memberItem = (m: MemberInfo, label: string, sort: string) => {
            const it = new vscode.CompletionItem(
              label,
              m.kind === 'measure' ? vscode.CompletionItemKind.Field : vscode.CompletionItemKind.Property,
            );
            it.detail = `${m.name} · ${m.kind}${m.type ? ` · ${m.type}` : ''}`;
            it.documentation = m.description ?? m.title;
            it.sortText = sort;
            const column = m.name.slice(m.cube.length + 1);
            const inserted = m.kind === 'measure' && ctx.kind === 'members' ? `MEASURE(${column})` : column;
            let tail = '';
            if (ctx.kind === 'members' && label !== column) {
              // No cube is read yet: the label names the cube, but what goes in is the bare column
              // (the server rejects `cube.column` without a FROM), and the FROM is added with it.
              it.filterText = `${m.name} ${column}`;
              const cursor = doc.offsetAt(pos);
              const add = fromClauseInsertion(doc.getText(), cursor, m.cube);
              // At the end of the statement the FROM goes in with the column (an edit touching the
              // completion's own range could land on either side of it).
              if (add.offset <= cursor) tail = add.text;
              else it.additionalTextEdits = [vscode.TextEdit.insert(doc.positionAt(add.offset), add.text)];
            }
            if (inserted !== label || tail) {
              const snippet = new vscode.SnippetString().appendText(inserted);
              // The cursor stays after the column when the FROM comes in behind it.
              it.insertText = tail ? snippet.appendTabstop(0).appendText(tail) : snippet;
              it.filterText ??= column;
            }
            return it;
          };
          if (ctx.kind === 'columns') {
            for (const m of idx.members.values())
              if (m.cube === ctx.cube && m.kind !== 'segment')
                items.push(memberItem(m, m.name.slice(m.cube.length + 1), `0${m.name}`));
            return items;
          }
          if (ctx.kind === 'members') {
            for (const m of idx.members.values()) {
              if (m.kind === 'segment') continue;
              if (ctx.cubes.length === 0) items.push(memberItem(m, m.name, `1${m.name}`));
              else if (ctx.cubes.includes(m.cube))
                items.push(memberItem(m, m.name.slice(m.cube.length + 1), `0${m.name}`));
            }
          }
          for (const [name, c] of idx.cubes) {
            const it = new vscode.CompletionItem(name, vscode.CompletionItemKind.Class);
            it.detail = c.title;
            it.documentation = c.description;
            it.sortText = ctx.kind === 'cubes' ? `0${name}` : `2${name}`;
            items.push(it);
          }
          return items;
        },
      },
      '"',
      '.',
    ),
    vscode.languages.registerHoverProvider(SELECTOR, {
      async provideHover(doc, pos) {
        const line = doc.lineAt(pos.line).text;
        let range: vscode.Range | undefined;
        for (const m of line.matchAll(/[A-Za-z_]\w*(?:\.\w+)?/g)) {
          if (m.index <= pos.character && pos.character <= m.index + m[0].length) {
            range = new vscode.Range(pos.line, m.index, pos.line, m.index + m[0].length);
            break;
          }
        }
        if (!range) return undefined;
        const idx = await index(doc);
        if (!idx) return undefined;
        const word = doc.getText(range);
        const m = idx.members.get(word);
        const md = new vscode.MarkdownString();
        if (m) {
          md.appendMarkdown(`**${m.title ?? m.name}** — ${m.kind}${m.type ? ` (${m.type})` : ''}\n\n`);
          md.appendCodeblock(m.name, 'text');
          if (m.description) md.appendText(m.description);
          return new vscode.Hover(md, range);
        }
        const c = idx.cubes.get(word);
        if (c) {
          md.appendMarkdown(`**${c.title ?? word}** — cube\n\n`);
          if (c.description) md.appendText(c.description);
          return new vscode.Hover(md, range);
        }
        return undefined;
      },
    }),
  ];
}
