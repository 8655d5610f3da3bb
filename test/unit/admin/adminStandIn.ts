// The Administration commands in plain Node: the `vscode` stand-in of the deployment flows' tests
// (messages, clipboard, files, commands recorded) and an explorer context that records what a
// command refreshes and shows, answers from a ScriptedPrompter, and reaches a recording client.
import type * as PrompterModule from '../../../src/ui/prompter';
import { reset } from '../deployments/opsStandIn';

export { recorder, reset, standIn, treeNode } from '../deployments/opsStandIn';

/* eslint-disable @typescript-eslint/no-require-imports */
export const loadPrompter = () => ({
  ScriptedPrompter: (require('../../../src/ui/prompter') as typeof PrompterModule).ScriptedPrompter,
});
/* eslint-enable @typescript-eslint/no-require-imports */

export interface AdminWorld {
  answers?: (string | string[] | undefined)[];
  /** Every confirmation's answer, or one per confirmation in order. */
  confirm?: boolean | boolean[];
  production?: boolean;
  /** The node the view has selected (commands without an argument act on it). */
  selection?: unknown;
}

/** The Administration lists of the tree (the nodes a command refreshes). */
export const ROOTS = {
  users: { root: 'users' },
  groups: { root: 'groups' },
  roles: { root: 'roles' },
  userAttributes: { root: 'userAttributes' },
  embedTenants: { root: 'embedTenants' },
  embed: { root: 'embed' },
  settings: { root: 'settings' },
  integrations: { root: 'integrations' },
};

export function adminWorld(
  m: ReturnType<typeof loadPrompter>,
  client: Record<string, unknown>,
  w: AdminWorld = {},
) {
  const shown = reset();
  const refreshed: unknown[] = [];
  const secrets: string[] = [];
  const writes: string[] = [];
  const confirmations: string[] = [];
  const jsonShown: { key: string; name: string; value: unknown }[] = [];
  const confirms = Array.isArray(w.confirm) ? [...w.confirm] : undefined;
  const prompter = new m.ScriptedPrompter(w.answers ?? [], true);
  prompter.confirm = async (message: string, detail?: string, action?: string) => {
    confirmations.push(`${message} | ${detail} | ${action}`);
    return confirms ? (confirms.shift() ?? false) : w.confirm !== false;
  };
  /** The rows of each multi pick (the scripted prompter keeps only their labels). */
  const manyRows = new Map<string, { label: string; description?: string; checked: boolean }[]>();
  /** Every question as the user reads it: `input <title> | <prompt> | value=<value>[ | password]`, `pick <title> | <placeholder>`. */
  const questions: string[] = [];
  const pickMany = prompter.pickMany.bind(prompter);
  prompter.pickMany = async (title, choices, opts) => {
    questions.push(`pickMany ${title} | ${opts?.placeHolder ?? ''}`);
    manyRows.set(
      title,
      choices.map(({ label, description, value }) => ({
        label,
        description,
        checked: opts?.selected?.(value) === true,
      })),
    );
    return pickMany(title, choices, opts);
  };
  const input = prompter.input.bind(prompter);
  prompter.input = async (q) => (
    questions.push(
      `input ${q.title} | ${q.prompt ?? ''} | value=${q.value ?? ''}${q.placeHolder ? ` | e.g. ${q.placeHolder}` : ''}${q.password ? ' | password' : ''}`,
    ),
    input(q)
  );
  const pick = prompter.pick.bind(prompter);
  prompter.pick = async (title, choices, o) => {
    questions.push(`pick ${title} | ${(typeof o === 'string' ? o : o?.placeHolder) ?? ''}`);
    return pick(title, choices, o);
  };
  const deps = {
    services: {
      log: {
        info: () => undefined,
        warn: () => undefined,
        redact: (l: string) => l,
        addSecret: () => undefined,
      },
      profiles: {
        active: () => ({
          profile: {
            name: 'Live',
            production: w.production === true,
            platformUrl: 'https://cloud.example/api',
          },
        }),
        rememberSecret: (s: string) => void secrets.push(s),
      },
    },
    provider: {
      roots: { admin: ROOTS },
      refresh: (n: unknown) => void refreshed.push(n),
      loadedDeployments: () => [],
    },
    json: {
      show: async (key: string, name: string, value: unknown) => (
        jsonShown.push({ key, name, value }),
        { uri: { path: name } }
      ),
      update: () => undefined,
      isOpen: () => false,
    },
    targets: { client: async () => client, prompter: () => prompter, selection: () => w.selection },
    // The real one asks only on a production profile; its words are recorded either way.
    confirmWrite: async (what: string) => void writes.push(what),
  };
  return {
    deps: deps as never,
    prompter,
    questions,
    manyRows,
    refreshed,
    secrets,
    writes,
    confirmations,
    jsonShown,
    shown,
  };
}
