// The sandbox's answers for the platform's own services: the meta sync token of an environment, the
// Usage Analytics token (admin only; the sandbox has no Usage Analytics deployment of its own, so
// the token is for its first deployment's Data API, where it can be used), and GET /v1/spec: an
// OpenAPI 3.1 document made from the operation rows the sandbox serves (src/api/platform/*), so it
// describes exactly what the sandbox checks requests against.
import { z } from 'zod';
import type { CreateEnvironmentTokenInput } from '../../api/platform/environmentTokens';
import { declaredOperations, type Operation } from '../../api/platform/rows';
import { signJwt } from '../jwt';
import type { Router } from '../http';
import { adminOnly, deploymentRoutes, type PlatformDeps } from './common';

const TOKEN_SECONDS = 3600;

export function registerServiceRoutes(router: Router, deps: PlatformDeps): void {
  const on = deploymentRoutes(router, deps);
  on('POST', '/environments/:environmentId/tokens-for-meta-sync', async (ctx, dep) => {
    const env = (deps.data.environments.get(dep.id) ?? []).find((e) => e.id === ctx.params.environmentId);
    if (!env) return ctx.error(404, `Environment ${ctx.params.environmentId} not found in this deployment.`);
    // The body fits CreateDeploymentEnvironmentTokenInput (the row's check).
    const b = ctx.body as CreateEnvironmentTokenInput;
    const expiresIn = b.expires_in ?? TOKEN_SECONDS;
    const now = Date.now();
    const claims = { ...b.security_context, deploymentId: dep.id, metaSync: true };
    await ctx.json(200, {
      data: {
        token: signJwt(claims, deps.jwtSecret, expiresIn),
        security_context: b.security_context,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + expiresIn * 1000).toISOString(),
      },
    });
  });

  const admin = adminOnly(deps);
  router.add(
    'platform',
    'POST',
    '/v1/usage-analytics/token',
    admin('issuing a Usage Analytics token', async (ctx) => {
      const dep = deps.data.deployments[0];
      if (!dep) return ctx.error(404, 'Usage Analytics is not enabled for this account.');
      await ctx.json(200, {
        token: signJwt({ deploymentId: dep.id, usageAnalytics: true }, deps.jwtSecret, TOKEN_SECONDS),
        apiUrl: `${String(dep.deploymentUrl)}/cubejs-api/v1`,
        deploymentId: dep.id,
        expiresAt: new Date(Date.now() + TOKEN_SECONDS * 1000).toISOString(),
      });
    }),
  );

  let spec: Record<string, unknown> | undefined;
  router.add('platform', 'GET', '/v1/spec', async (ctx) => {
    spec ??= openApiOf(declaredOperations());
    await ctx.json(200, spec);
  });
}

/** JSON Schema of what travels on the wire (a schema's input side); what JSON cannot say is any. */
const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
};

/** The platform's rows as an OpenAPI 3.1 document (SCIM and the build API have documents of their own). */
export function openApiOf(rows: readonly { name: string; op: Operation }[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { name, op } of rows) {
    if (/^\/(scim|build)\//.test(op.path)) continue;
    const params = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
      in: 'path',
      name: m[1],
      required: true,
      schema: { type: op.text?.includes(m[1]!) ? 'string' : 'integer' },
    }));
    const shape = (op.query as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape ?? {};
    const query = Object.entries(shape).map(([key, field]) => ({
      in: 'query',
      name: key,
      ...(field.safeParse(undefined).success ? {} : { required: true }),
      schema: jsonSchema(field),
    }));
    const answer = op.item
      ? z.object({ items: z.array(op.item), pageInfo: z.unknown() })
      : op.each
        ? z.array(op.each)
        : op.answer;
    const operation = {
      operationId: name,
      ...(params.length + query.length ? { parameters: [...params, ...query] } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: !op.body.safeParse(undefined).success,
              content: { 'application/json': { schema: jsonSchema(op.body) } },
            },
          }
        : {}),
      responses: {
        '200': {
          description: op.kind === 'read' ? 'The answer' : 'Done',
          ...(answer ? { content: { 'application/json': { schema: jsonSchema(answer) } } } : {}),
        },
      },
    };
    (paths[`/api${op.path}`] ??= {})[op.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cube Platform API (sandbox)',
      version: '1.0.0',
      description:
        'The operations the sandbox serves and checks requests against, made from its operation rows.',
    },
    paths,
  };
}
