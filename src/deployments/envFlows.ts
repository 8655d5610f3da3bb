// Env variables (set, change, reveal) and environment tokens (create; shown once). Values and
// tokens are secrets-like: they are made known to the log's redaction, never logged, never put in
// a message title or a saved file, and the tree shows them masked.
import * as vscode from 'vscode';
import { ENCRYPTED_PLACEHOLDER, ENV_NAME_PATTERN } from '../api/platform/envVars';
import { withCheckCommand } from '../api/http';
import { COMMANDS } from '../commands';
import { displayName, plainText } from '../explorer/labels';
import type { Item } from '../explorer/loaders';
import { ListNode } from '../explorer/nodes/listNode';
import { ancestor, asArgs, asNode, resolveDeploymentId } from '../explorer/targets';
import type { OpsContext } from './opsContext';

export class EnvFlows {
  constructor(private readonly ops: OpsContext) {}

  /** A new variable (or a new value for an existing name) on a deployment. */
  async setEnvVar(arg?: unknown): Promise<string> {
    const o = this.ops;
    const deploymentId = await resolveDeploymentId(o.targets, arg);
    const args = asArgs<{ name: string; value: string }>(arg);
    const name =
      args.name ??
      (await o.prompter.input({
        title: 'Set Env Variable (1/2)',
        prompt: 'Name (letters, digits and _; not starting with a digit).',
        validate: (v) =>
          ENV_NAME_PATTERN.test(v.trim())
            ? undefined
            : 'Use letters, digits and _, not starting with a digit.',
      }));
    return this.write(deploymentId, name.trim(), args.value, '(2/2)');
  }

  /** A new value for the clicked variable. */
  async changeEnvVar(arg?: unknown): Promise<string> {
    const { deploymentId, item } = await this.resolveVar(arg);
    return this.write(deploymentId, String(item['name']), asArgs<{ value: string }>(arg).value, '');
  }

  /** Shows the value of the clicked variable in a modal (masked values say why), with Copy. */
  async revealEnvVar(arg?: unknown): Promise<'copied' | 'shown' | 'masked'> {
    const { deploymentId, item } = await this.resolveVar(arg);
    const name = plainText(item['name']);
    const value = typeof item['value'] === 'string' ? item['value'] : undefined;
    const dep = await this.ops.deploymentName(deploymentId);
    if (value === undefined || value === ENCRYPTED_PLACEHOLDER) {
      void vscode.window.showInformationMessage(
        `${name} on ${dep} is a secret-named variable: the server never sends its value. Use Change Value to replace it.`,
      );
      return 'masked';
    }
    this.ops.log.addSecret(value);
    const copy = await this.ops.prompter.confirm(`${name} on ${dep}`, value, 'Copy to Clipboard');
    if (!copy) return 'shown';
    await vscode.env.clipboard.writeText(value);
    return 'copied';
  }

  private async write(
    deploymentId: number,
    name: string,
    given: string | undefined,
    step: string,
  ): Promise<string> {
    const o = this.ops;
    const value =
      given ??
      (await o.prompter.input({
        title: `Value of ${name} ${step}`.trim(),
        prompt: 'The value is sent to the server and never logged.',
        password: true,
        validate: (v) =>
          v === ENCRYPTED_PLACEHOLDER ? 'That is the masked placeholder, not a value.' : undefined,
      }));
    o.log.addSecret(value);
    const dep = await o.deploymentName(deploymentId);
    await o.confirmWrite(`Set env variable ${name} on ${dep}`);
    await (await o.client()).ops.setEnvVariables(deploymentId, [{ name, value }]).catch((e: unknown) => {
      throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
    });
    this.refresh(deploymentId, 'envVars');
    void vscode.window.showInformationMessage(`Env variable ${name} saved on ${dep}.`);
    return name;
  }

  /** Creates a token for an environment; shows it once in a modal with Copy. */
  async createToken(arg?: unknown): Promise<{ expiresAt?: string; copied: boolean }> {
    const o = this.ops;
    const args = asArgs<{
      environmentId: string;
      securityContext: Record<string, unknown>;
      expiresIn: number;
    }>(arg);
    const envNode = ancestor(asNode(arg), 'environment');
    const deploymentId = envNode?.deploymentId ?? (await resolveDeploymentId(o.targets, arg));
    let env: Item | undefined = envNode?.data;
    if (!env && args.environmentId !== undefined) env = { id: String(args.environmentId) };
    if (!env) {
      const page = await (await o.client()).listEnvironments(deploymentId, { first: 100 });
      const dep = await o.deploymentName(deploymentId);
      if (page.items.length === 0) throw new Error(`${dep} has no environments.`);
      env = await o.prompter.pick(
        'Create Environment Token',
        page.items.map((e) => ({
          label: plainText(e.type ?? e.id),
          ...(e.branch ? { description: `branch ${plainText(e.branch)}` } : {}),
          value: e as Item,
        })),
        'Pick an environment',
      );
    }
    const contextText =
      args.securityContext !== undefined
        ? JSON.stringify(args.securityContext)
        : await o.prompter.input({
            title: 'Create Environment Token (1/2)',
            prompt: 'Security context as a JSON object (what the token may see).',
            value: '{}',
            validate: (v) => {
              try {
                const parsed: unknown = JSON.parse(v);
                return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
                  ? undefined
                  : 'Enter a JSON object, e.g. {"role": "analyst"}.';
              } catch {
                return 'Not valid JSON: enter an object, e.g. {"role": "analyst"}.';
              }
            },
          });
    const expiresIn =
      args.expiresIn ??
      Number(
        await o.prompter.input({
          title: 'Create Environment Token (2/2)',
          prompt: 'Lifetime in seconds (1 to 3600).',
          value: '3600',
          validate: (v) => {
            const n = Number(v);
            return Number.isInteger(n) && n >= 1 && n <= 3600 ? undefined : 'A whole number from 1 to 3600.';
          },
        }),
      );
    const dep = await o.deploymentName(deploymentId);
    const envName = `the ${plainText(env['type'] ?? `environment ${displayName(env)}`)} environment of ${dep}`;
    await o.confirmWrite(`Create a token for ${envName}`);
    const created = await (
      await o.client()
    ).ops
      .createEnvironmentToken(deploymentId, String(env['id']), {
        security_context: JSON.parse(contextText) as Record<string, unknown>,
        expires_in: expiresIn,
      })
      .catch((e: unknown) => {
        throw withCheckCommand(e, COMMANDS.explorerRefresh.id);
      });
    // Known to the redaction before it is shown anywhere.
    o.log.addSecret(created.token);
    if (envNode instanceof ListNode) o.deps.provider.refresh(envNode);
    const copied = await o.prompter.confirm(
      `Token created for ${envName}. Copy it now: it is shown only this once.`,
      `${created.token}\n\nExpires ${plainText(created.expires_at ?? 'at an unknown time')}.`,
      'Copy to Clipboard',
    );
    if (copied) await vscode.env.clipboard.writeText(created.token);
    return { ...(created.expires_at ? { expiresAt: created.expires_at } : {}), copied };
  }

  private async resolveVar(arg: unknown): Promise<{ deploymentId: number; item: Item }> {
    const node = ancestor(arg === undefined ? this.ops.targets.selection() : asNode(arg), 'envVar');
    if (node?.data && node.deploymentId !== undefined)
      return { deploymentId: node.deploymentId, item: node.data };
    const deploymentId = await resolveDeploymentId(this.ops.targets, arg);
    const page = await (await this.ops.client()).listEnvVars(deploymentId, { first: 200 });
    const given = asArgs<{ name: string }>(arg).name;
    if (given !== undefined) {
      const found = page.items.find((v) => v.name === given);
      if (!found)
        throw new Error(
          `No env variable ${plainText(given)} on ${await this.ops.deploymentName(deploymentId)}.`,
        );
      return { deploymentId, item: found };
    }
    const item = await this.ops.prompter.pick(
      'Env Variable',
      page.items.map((v) => ({ label: plainText(v.name), value: v as Item })),
      'Pick an env variable',
    );
    return { deploymentId, item };
  }

  private refresh(deploymentId: number, kind: 'envVars'): void {
    const dep = this.ops.deps.provider.loadedDeployments().find((d) => d.deploymentId === deploymentId);
    if (dep) this.ops.deps.provider.refresh(dep.list(kind));
  }
}
