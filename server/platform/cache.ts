/**
 * A value shared by every caller for a short while: the first caller after it expires computes
 * it and the others wait for that same promise (so a burst of requests costs one computation).
 * Per process; a value is at most `ttlMs` old, and `forget()` drops it now (a change made here
 * that moves it). A failure is not kept.
 */
export function shortLived<K, T>(ttlMs: number, compute: (key: K) => Promise<T>): ((key: K) => Promise<T>) & { forget: () => void } {
  let entry: { key: K; at: number; value: Promise<T> } | undefined;
  const get = (key: K) => {
    if (ttlMs <= 0) return compute(key);
    const now = Date.now();
    if (entry && entry.key === key && now - entry.at < ttlMs) return entry.value;
    const value = compute(key);
    const current = { key, at: now, value };
    entry = current;
    value.catch(() => {
      if (entry === current) entry = undefined;
    });
    return value;
  };
  return Object.assign(get, {
    forget: () => {
      entry = undefined;
    },
  });
}

/**
 * One `T` per owner (an app's context or database), made on first use and dropped with the
 * owner: per-app caches, copies and batchers that several apps in one process (tests) keep apart.
 */
export function perOwner<O extends object, T>(make: (owner: O) => T): (owner: O) => T {
  const made = new WeakMap<O, T>();
  return (owner) => {
    let value = made.get(owner);
    if (value === undefined) {
      value = make(owner);
      made.set(owner, value);
    }
    return value;
  };
}
