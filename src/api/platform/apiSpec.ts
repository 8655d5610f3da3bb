// The OpenAPI 3.1 document of the Platform API as served by the build answering the request (every
// path, parameter, request body and schema), for runtime discovery. Read as one JSON object, kept
// whole: the extension does not interpret it.
import { z } from 'zod';
import { table } from './operation';
import { maybe } from './transport';

export const ApiSpecSchema = z.looseObject({
  // The documents promise only an object: what an OpenAPI document holds is read if present.
  openapi: maybe(z.string()),
  info: maybe(z.looseObject({ title: maybe(z.string()), version: maybe(z.string()) })),
  paths: maybe(z.record(z.string(), z.unknown())),
});
export type ApiSpec = z.infer<typeof ApiSpecSchema>;

export const API_SPEC = table(
  {},
  {
    getApiSpec: {
      method: 'GET',
      path: '/v1/spec',
      kind: 'read',
      answer: ApiSpecSchema,
      action: 'Reading the Platform API description',
    },
  },
);
