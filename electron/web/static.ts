import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_ROUTE } from './guard';

/**
 * The built renderer at `/`, without a token: the page has to load before it can read its token from the
 * address's fragment. It holds nothing secret; everything it shows comes through the guarded API.
 */
export async function staticRoutes(app: FastifyInstance, root: string): Promise<void> {
  await app.register(async (scope) => {
    // The renderer's routes, and only they, are public (guard.ts: a route not marked needs the token).
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, ...PUBLIC_ROUTE.config };
    });
    await scope.register(fastifyStatic, {
      root,
      prefix: '/',
      index: 'index.html',
      // The renderer's files only: no listing, no dotfiles, nothing above its folder.
      list: false,
      dotfiles: 'deny',
      allowedPath: (path) => !path.split('/').includes('..'),
      // A rebuilt renderer is picked up on reload: index.html is never cached; hashed assets may be.
      setHeaders: (reply, path) => {
        if (path.endsWith('.html')) reply.header('cache-control', 'no-cache');
      },
    });
  });
}
