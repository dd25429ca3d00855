// The shared layout (spec 000 §2): sidebar on the inline-start side, a top bar with the page title
// and the bell, and the page. Below 900px the sidebar becomes a slide-in drawer opened from the
// top bar; it closes on navigation, on a backdrop click and on Escape.

import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { MenuIcon } from '../components/icons';
import { DEFAULT_FOLDER, folderTitle, normalizeFolder } from '../features/inbox/folders';
import { useFolderCounts } from '../features/inbox/useFolderCounts';
import { he } from '../i18n/he';
import { LiveStatusIndicator } from './live/LiveUpdates';
import { NotificationBell } from './NotificationBell';
import { pageTitle, resolvePage } from './routes';
import { Sidebar } from './Sidebar';
import { IconButton } from '../components/IconButton';
import { useOwnFolder } from '../features/folders/useFolderTree';

const SIDEBAR_ID = 'app-sidebar';

/** The heading of the current screen: a page's title, or the folder's for the inbox. */
export function useCurrentTitle(): string {
  const location = useLocation();
  const [params] = useSearchParams();
  const page = resolvePage(location.pathname);
  const own = useOwnFolder();
  if (page === 'Inbox' && own) return own.title;
  if (page === 'Inbox') return folderTitle(normalizeFolder(params.get('folder')) ?? DEFAULT_FOLDER);
  return pageTitle(page);
}

export function Layout({ children }: { children: ReactNode }) {
  const counts = useFolderCounts();
  const location = useLocation();
  const title = useCurrentTitle();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const sidebarBox = useRef<HTMLDivElement>(null);

  const closeDrawer = useCallback((restoreFocus = false) => {
    setDrawerOpen(false);
    if (restoreFocus) menuButton.current?.focus();
  }, []);

  // Navigation closes the drawer (a link in it was followed).
  useEffect(() => {
    setDrawerOpen(false);
  }, [location.pathname, location.search]);

  useEffect(() => {
    document.title = he.app.documentTitle(title);
  }, [title]);

  useEffect(() => {
    if (!drawerOpen) return;
    // Move focus into the drawer so keyboard users land in it, and let Escape close it.
    sidebarBox.current?.querySelector<HTMLElement>('a, button, input')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeDrawer(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [drawerOpen, closeDrawer]);

  return (
    <div className={`app-shell${drawerOpen ? ' is-drawer-open' : ''}`}>
      <div className="sidebar-box" ref={sidebarBox}>
        <Sidebar id={SIDEBAR_ID} counts={counts} onClose={() => closeDrawer(true)} />
      </div>
      <div
        className="drawer-backdrop"
        aria-hidden="true"
        onClick={() => closeDrawer(true)}
        data-testid="drawer-backdrop"
      />
      <div className="app-main">
        <header className="topbar">
          <IconButton
            label={he.layout.openMenu}
            className="topbar__menu"
            ref={menuButton}
            aria-expanded={drawerOpen}
            aria-controls={SIDEBAR_ID}
            onClick={() => setDrawerOpen(true)}
            testId="menu-button"
          >
            <MenuIcon />
          </IconButton>
          <h1 className="topbar__title" data-testid="page-title">
            {title}
          </h1>
          <div className="topbar__actions">
            <LiveStatusIndicator />
            <NotificationBell />
          </div>
        </header>
        <main className="page" id="main-content" data-testid="page">
          {children}
        </main>
      </div>
    </div>
  );
}
