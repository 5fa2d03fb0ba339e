import { type ComponentType, lazy, useState } from 'react';
import { antdLocaleReady } from '../i18n/index.ts';

/** A screen loaded on demand, which can also be loaded ahead of its first render. */
export type LaterComponent<P extends object> = ComponentType<P> & {
  /** Loads the component (once); rendered after it settles, it renders at once, no Suspense. */
  preload: () => Promise<void>;
};

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
): LaterComponent<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const loadOnce = () =>
    (loading ??= (async () => {
      await after?.();
      const [Component, { QueryRoot }] = await Promise.all([
        load(),
        import('./queryRoot.tsx'),
        antdTexts ? antdLocaleReady() : undefined,
      ]);
      loaded = (props: P) => (
        <QueryRoot>
          <Component {...props} />
        </QueryRoot>
      );
      return loaded;
    })());
  const Lazy: ComponentType<P> = lazy(async () => ({ default: await loadOnce() }));
  const choose = (): ComponentType<P> => loaded ?? Lazy;
  return Object.assign((props: P) => <Chosen choose={choose} props={props} />, {
    preload: async () => void (await loadOnce()),
  });
}

/**
 * The loaded component when it was loaded before this mount, else the lazy one; chosen once per
 * mount, as switching from the lazy to the loaded one would remount the screen.
 */
function Chosen<P extends object>({ choose, props }: { choose: () => ComponentType<P>; props: P }) {
  const [Component] = useState(choose);
  return <Component {...props} />;
}
