// Gate for every route except /login and /setup (spec 000 §2): unauthenticated → /login,
// and while the session is still being established a loading message instead of a flash of login.

import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { he } from '../i18n/he';
import { useAuth } from '../session/AuthProvider';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, loading } = useAuth();
  const location = useLocation();

  if (loading) {
    return (
      <div className="full-page-message" role="status" data-testid="auth-loading">
        {he.app.loading}
      </div>
    );
  }
  if (!isAuthenticated) {
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  return <>{children}</>;
}
