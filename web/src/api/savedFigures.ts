import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { onlineManager, type Query, type QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import { connectivity } from '../lib/connectivity.ts';
import { SAVED_FIGURES_KEY, storage } from '../lib/storage.ts';

/**
 * The last figures, kept on the device (localStorage) so that every screen shows them offline,
 * with the time they are from. Kept per holder: the saved cache carries the holder's user id
 * (the persister's buster), and one saved for anyone else is thrown away instead of shown; logout
 * removes it (session/store.ts). Only answers are kept, never mutations, and never the operator
 * console's or the sign-in sessions' lists. They are brought back only offline (at the start, or
 * when the server stops answering): online, every screen shows what the server answers now, as
 * it did before, never a saved figure on its way to being replaced.
 */

/** How long saved figures are worth showing; also how long the cache keeps unused ones. */
export const SAVED_FOR_MS = 24 * 60 * 60 * 1000;
/** A burst of answers (a screen's first load) is saved once, this long after its first. */
const SAVE_AFTER_MS = 1000;
const NOT_KEPT = new Set(['operator', 'sessions']);

const persister = createSyncStoragePersister({ storage: window.localStorage, key: SAVED_FIGURES_KEY, throttleTime: 0 });

const kept = (query: Query): boolean =>
  query.state.status === 'success' && !NOT_KEPT.has(String(query.queryKey[0]));

const dehydrateOptions = { shouldDehydrateQuery: kept, shouldDehydrateMutation: () => false };

/** The saved figures of the holder signed in now, into the cache; anyone else's are removed. */
function restore(queryClient: QueryClient): Promise<void> {
  const holder = storage.get('userId');
  if (!holder) {
    persister.removeClient();
    return Promise.resolve();
  }
  return persistQueryClientRestore({ queryClient, persister, maxAge: SAVED_FOR_MS, buster: holder })
    .catch(() => undefined)
    .then(() =>
      // Saved figures are shown until the server answers again, never taken as fresh: back
      // online, each screen asks again, staleTime or not.
      queryClient.invalidateQueries({ refetchType: 'none' }),
    );
}

/** Figures saved for anyone but the holder signed in now go at once, shown or not (a shared phone). */
function dropOtherHolders(): void {
  const text = localStorage.getItem(SAVED_FIGURES_KEY);
  if (text === null) return;
  let buster: unknown;
  try {
    buster = (JSON.parse(text) as { buster?: unknown }).buster;
  } catch {
    buster = undefined;
  }
  const holder = storage.get('userId');
  if (!holder || buster !== holder) persister.removeClient();
}

/** Saves the cache a moment after it changes, under the holder signed in then (none: nothing). */
function saveOnChange(queryClient: QueryClient): void {
  let pending: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    pending = undefined;
    const holder = storage.get('userId');
    if (holder) void persistQueryClientSave({ queryClient, persister, buster: holder, dehydrateOptions });
  };
  queryClient.getQueryCache().subscribe((event) => {
    if (pending === undefined && (event.type === 'added' || event.type === 'removed' || event.type === 'updated')) {
      pending = setTimeout(save, SAVE_AFTER_MS);
    }
  });
}

/**
 * TanStack Query's idea of online follows the app's (lib/connectivity.ts): offline, queries wait
 * instead of failing, so a screen keeps its saved figures, and they are asked again on return.
 */
function followConnectivity(): void {
  onlineManager.setEventListener((setOnline) => {
    setOnline(!connectivity.isOffline());
    return connectivity.subscribe(() => setOnline(!connectivity.isOffline()));
  });
}

/**
 * Keeps saving the figures, and brings the saved ones back whenever the app is offline; resolves
 * once they are in the cache if it starts offline (at once otherwise).
 */
export function keepFigures(queryClient: QueryClient): Promise<void> {
  followConnectivity();
  dropOtherHolders();
  saveOnChange(queryClient);
  const restoreIfOffline = () => (connectivity.isOffline() ? restore(queryClient) : Promise.resolve());
  connectivity.subscribe(() => void restoreIfOffline());
  return restoreIfOffline();
}

/**
 * When the oldest figure on view is from (its answer's time, ms), 0 when none has one yet: the
 * queries with an observer (a mounted screen's) and an answer, but not the bell's unread count,
 * which is no figure of the screen's.
 */
export function oldestFigureOnView(queryClient: QueryClient): number {
  let oldest = 0;
  for (const query of queryClient.getQueryCache().getAll()) {
    if (query.getObserversCount() === 0 || query.queryKey[0] === 'notifications') continue;
    const at = query.state.dataUpdatedAt;
    if (at > 0 && (oldest === 0 || at < oldest)) oldest = at;
  }
  return oldest;
}
