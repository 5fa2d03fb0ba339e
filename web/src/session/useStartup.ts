import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { session, storage } from '../lib/storage.ts';
import { loginWithStoredCode, startAuthorisation } from './auth.ts';
import { sessionStore } from './store.ts';

/** After a login the dashboard loads about 0.2 s later (spec section 9). */
const POST_LOGIN_DELAY_MS = 200;

export type StartupPhase = 'ready' | 'signing-in' | 'redirecting' | 'signed-out' | 'ended';

/**
 * Start-up on the home screen (spec section 4): a stored token loads the dashboard; after the
 * server ended the session (a 401), wait on Home, which says so; with no code to exchange, go
 * and authorise; otherwise exchange code and state for a login. A state
 * stored alone is a sign-in this browser started but did not finish (or a code that came back
 * with another state and was dropped): authorise again, which replaces it.
 */
export function useStartup(): StartupPhase {
  const navigate = useNavigate();
  const started = useRef(false);
  const [phase, setPhase] = useState<StartupPhase>(() => (storage.get('token') ? 'ready' : session.hasEnded() ? 'ended' : 'signing-in'));

  useEffect(() => {
    if (started.current || storage.get('token') || sessionStore.isLoggingOut()) return;
    // The server ended the session: Home says so; the holder signs in again from there.
    if (session.hasEnded()) return;
    started.current = true;
    if (!storage.get('code') || !storage.get('state')) {
      setPhase('redirecting');
      startAuthorisation().catch(() => setPhase('signed-out'));
      return;
    }
    void loginWithStoredCode().then((result) => {
      if (!result) return setPhase('signed-out');
      setTimeout(() => {
        setPhase('ready');
        if (result.redirectRefer && result.redirectRefer !== '/home') navigate(result.redirectRefer);
      }, POST_LOGIN_DELAY_MS);
    });
  }, [navigate]);

  return phase;
}
