/**
 * Reads by key, gathered: the keys asked for within one turn of the event loop are loaded by one
 * call of `load` (one query instead of one each), and every caller gets its own key's value.
 * A load starts after each of its callers asked, so it sees everything committed before then.
 * Per process; a failed load fails the callers of that turn only.
 */
export function gathered<K, V>(load: (keys: K[]) => Promise<Map<K, V>>, missing: () => V): (key: K) => Promise<V> {
  let waiting: { key: K; resolve: (value: V) => void; reject: (error: unknown) => void }[] | null = null;
  const flush = () => {
    const batch = waiting ?? [];
    waiting = null;
    load([...new Set(batch.map((w) => w.key))]).then(
      (values) => {
        for (const w of batch) w.resolve(values.get(w.key) ?? missing());
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  };
  return (key) =>
    new Promise<V>((resolve, reject) => {
      if (!waiting) {
        waiting = [];
        setImmediate(flush);
      }
      waiting.push({ key, resolve, reject });
    });
}
