import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSnapshot } from 'valtio';
import { session } from '../auth/session';

/** Spec 2.1: a non-public route without a stored token goes to /login?redirect=<where the user was going>. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { token } = useSnapshot(session);
  const location = useLocation();
  if (!token) {
    const redirect = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?redirect=${redirect}`} replace />;
  }
  return children;
}
