import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { installErrorHandling } from './http/errors.ts';

export type AppOptions = { logger?: boolean | object };

/** Builds the whole server: API, docs and the built web app, around one context. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: ctx.config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: 64 * 1024,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  installErrorHandling(app);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${ctx.config.appName} API`, version: '0.1.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  await app.register(dashboardRoutes, { ctx });

  const webRoot = resolve(ctx.config.webDir);
  if (existsSync(resolve(webRoot, 'index.html'))) {
    await app.register(fastifyStatic, { root: webRoot, preCompressed: true, wildcard: false });
  }
  return app;
}
