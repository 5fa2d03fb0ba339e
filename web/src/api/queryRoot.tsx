import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import '../lib/imperativeRender.ts';
import { queryRetry, queryRetryDelay } from './backoff.ts';
import { keepFigures, SAVED_FOR_MS } from './savedFigures.ts';

/**
 * The app's one query cache, shared by every screen (a buy refreshes the home figures too).
 * Unused answers stay as long as saved ones count (gcTime): one dropped earlier would be missing
 * from the figures kept on the device for offline.
 */
const queryClient = new QueryClient({
  defaultOptions: {
    // A failed read is asked once more, after the server's Retry-After when it gave one; one the
    // server was too busy for has been asked again already by the client (api/backoff.ts).
    queries: { retry: queryRetry, retryDelay: queryRetryDelay, refetchOnWindowFocus: false, staleTime: 15_000, gcTime: SAVED_FOR_MS },
    // An action is sent when asked, or fails: never held offline and sent later on its own.
    mutations: { networkMode: 'always' },
  },
});

/**
 * Resolves once the figures saved on this device for this holder are in the cache, when the app
 * starts offline; at once online (they come back only offline: savedFigures.ts).
 */
export const figuresRestored = keepFigures(queryClient);

export function QueryRoot({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
