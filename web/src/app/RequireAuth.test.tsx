import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { DANA } from '../test/helpers';
import { AuthContext, type AuthContextValue } from '../session/AuthProvider';
import { RequireAuth } from './RequireAuth';

function auth(over: Partial<AuthContextValue>): AuthContextValue {
  return {
    user: null,
    token: null,
    isAuthenticated: false,
    loading: false,
    signIn: () => {},
    logout: async () => {},
    ...over,
  };
}

function renderAt(value: AuthContextValue, route = '/Settings') {
  return render(
    <AuthContext.Provider value={value}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path="/login" element={<p>login screen</p>} />
          <Route
            path="*"
            element={
              <RequireAuth>
                <p>secret page</p>
              </RequireAuth>
            }
          />
        </Routes>
      </MemoryRouter>
    </AuthContext.Provider>,
  );
}

describe('RequireAuth', () => {
  it('redirects an unauthenticated visitor to /login', () => {
    renderAt(auth({}));
    expect(screen.getByText('login screen')).toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });

  it('shows the loading message while authentication is loading', () => {
    renderAt(auth({ loading: true }));
    expect(screen.getByRole('status')).toHaveTextContent('טוען...');
    expect(screen.queryByText('login screen')).not.toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });

  it('renders the page for a signed-in user', () => {
    renderAt(auth({ user: DANA, token: 't', isAuthenticated: true }));
    expect(screen.getByText('secret page')).toBeInTheDocument();
  });
});
