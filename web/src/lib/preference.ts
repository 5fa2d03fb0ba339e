import { useState } from 'react';
import { STORAGE_PREFIX } from './storage.ts';

/** A choice remembered on this device (localStorage); `fallback` when absent, unknown or unreadable. */
function readChoice<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(`${STORAGE_PREFIX}${name}`);
    return allowed.find((choice) => choice === value) ?? fallback;
  } catch {
    return fallback;
  }
}

function writeChoice(name: string, value: string): void {
  try {
    localStorage.setItem(`${STORAGE_PREFIX}${name}`, value);
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this visit only.
  }
}

/** A state that starts from the remembered choice and remembers each change. */
export function useRememberedChoice<T extends string>(name: string, allowed: readonly T[], fallback: T) {
  const [value, setValue] = useState<T>(() => readChoice(name, allowed, fallback));
  const choose = (next: T) => {
    setValue(next);
    writeChoice(name, next);
  };
  return [value, choose] as const;
}
