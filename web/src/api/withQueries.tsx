import { type ComponentType, lazy } from 'react';
import { antdLocaleReady } from '../i18n/index.ts';

/**
 * A component that reads the server through TanStack Query, loaded when first shown together
 * with the query cache and wrapped in its provider. The home route's first paint then needs
 * neither (a tenth of its JavaScript): its own figures arrive a moment later, in their
 * placeholder's place. It also waits for antd-mobile's texts in the holder's language (pickers,
 * pull to refresh), which the first paint does not need. Call it once per component, at module
 * level (each call is its own lazy). `antdTexts: false` for a component that shows none of
 * antd-mobile's texts (home's), so it does not load them; `after`: what to wait for before
 * asking for anything (home's first paint).
 */
export function withQueries<P extends object>(
  load: () => Promise<ComponentType<P>>,
  { antdTexts = true, after }: { antdTexts?: boolean; after?: () => Promise<void> } = {},
): ComponentType<P> {
  return lazy(async () => {
    await after?.();
    const [Component, { QueryRoot, figuresRestored }] = await Promise.all([
      load(),
      import('./queryRoot.tsx'),
      antdTexts ? antdLocaleReady() : undefined,
    ]);
    // The saved figures first: a screen then opens on them (offline, its only ones).
    await figuresRestored;
    return {
      default: (props: P) => (
        <QueryRoot>
          <Component {...props} />
        </QueryRoot>
      ),
    };
  });
}
