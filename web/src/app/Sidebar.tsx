// The shared layout's sidebar (spec 000 §2 "Shared layout"), on the inline-start side (right in RTL):
// brand, new mail, search, folders with count badges (pending replies also shows the drafts count
// and a dot when a send failed), tools, settings, and the account footer.

import { Fragment, useEffect, useState, type ComponentType, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { FolderCounts } from '../api/types';
import {
  ArchiveIcon,
  BrainIcon,
  ClockIcon,
  CloseIcon,
  ContactsIcon,
  DraftIcon,
  InboxIcon,
  InfoIcon,
  LogoutIcon,
  MailIcon,
  PenIcon,
  RulesIcon,
  SearchIcon,
  SendIcon,
  SettingsIcon,
  SparkIcon,
  SpamIcon,
  StarIcon,
  TagIcon,
  TasksIcon,
  TemplateIcon,
  TrashIcon,
} from '../components/icons';
import { SIDEBAR_FOLDERS, folderHref, normalizeFolder } from '../features/inbox/folders';
import { PendingIndicator } from '../features/drafts/PendingIndicator';
import { SnoozedNavItem } from '../features/snooze/SnoozedNavItem';
import { OwnFolders } from '../features/folders/OwnFolders';
import { he, type FolderKey } from '../i18n/he';
import { useAuth } from '../session/AuthProvider';
import { pagePath, resolvePage, type PageName } from './routes';
import { ScaleControl } from './ScaleControl';

const FOLDER_ICONS: Partial<Record<FolderKey, ComponentType>> = {
  inbox: InboxIcon,
  starred: StarIcon,
  'pending-replies': ClockIcon,
  Archive: ArchiveIcon,
  Spam: SpamIcon,
  Promotions: TagIcon,
  Updates: InfoIcon,
  sent: SendIcon,
  drafts: DraftIcon,
  trash: TrashIcon,
};

// The tools list: only tools with a working page behind them.
const TOOLS: readonly { page: PageName; label: string; Icon: ComponentType }[] = [
  { page: 'Search', label: he.tools.search, Icon: SearchIcon },
  { page: 'Contacts', label: he.tools.contacts, Icon: ContactsIcon },
  { page: 'Tasks', label: he.tools.tasks, Icon: TasksIcon },
  { page: 'Subscriptions', label: he.tools.subscriptions, Icon: TagIcon },
  { page: 'Rules', label: he.tools.rules, Icon: RulesIcon },
  { page: 'SmartFeatures', label: he.tools.smartFeatures, Icon: SparkIcon },
  { page: 'AITraining', label: he.tools.aiTraining, Icon: BrainIcon },
  { page: 'BuilderPage', label: he.tools.builder, Icon: TemplateIcon },
];

export interface SidebarProps {
  counts: FolderCounts;
  id?: string;
  /** Shown only when the sidebar is a drawer (small screens). */
  onClose?: () => void;
}

/** Which folder entry is current for a location, if any. */
function currentFolder(page: PageName, folderParam: string | null, ownFolder: string | null): FolderKey | null {
  if (page === 'PendingReplies') return 'pending-replies';
  if (page === 'Inbox') return normalizeFolder(folderParam) ?? (ownFolder ? null : 'inbox');
  return null;
}

function formatCount(n: number): string {
  return n > 999 ? '999+' : String(n);
}

export function Sidebar({ counts, id, onClose }: SidebarProps) {
  const location = useLocation();
  const [params] = useSearchParams();
  const page = resolvePage(location.pathname);
  const activeFolder = currentFolder(page, params.get('folder'), params.get('box'));

  return (
    <aside className="sidebar" id={id} data-testid="sidebar">
      <div className="sidebar__brand">
        <span className="brand-mark" aria-hidden="true">
          <MailIcon />
        </span>
        <span className="brand-name">{he.app.name}</span>
        {onClose && (
          <button type="button" className="icon-button sidebar__close" aria-label={he.layout.closeMenu} onClick={onClose}>
            <CloseIcon />
          </button>
        )}
      </div>

      <Link to={pagePath('Compose')} className="compose-button" data-testid="compose-button"
        aria-current={page === 'Compose' ? 'page' : undefined}>
        <PenIcon />
        <span>{he.layout.compose}</span>
      </Link>

      <SidebarSearch />

      <nav className="sidebar__nav" aria-label={he.layout.nav} data-testid="sidebar-nav">
        <h2 className="visually-hidden">{he.layout.folders}</h2>
        <ul className="nav-list" data-testid="folder-list">
          {SIDEBAR_FOLDERS.map((f) => {
            const Icon = FOLDER_ICONS[f.key] ?? InboxIcon;
            const count = counts[f.countKey] ?? 0;
            const active = activeFolder === f.key;
            return (
              <Fragment key={f.key}>
              <li>
                <Link
                  to={folderHref(f.key)}
                  className={`nav-item${active ? ' is-active' : ''}`}
                  aria-current={active ? 'page' : undefined}
                  title={he.folderHints[f.key]}
                  data-testid={`folder-${f.key}`}
                  data-folder={f.key}
                >
                  <Icon />
                  <span className="nav-item__label">{he.folders[f.key]}</span>
                  {count > 0 && (
                    <span className="badge" data-testid={`folder-count-${f.key}`} data-count={count} title={String(count)} dir="ltr">
                      {formatCount(count)}
                    </span>
                  )}
                  {f.key === 'pending-replies' && <PendingIndicator />}
                </Link>
              </li>
              {/* The snoozed threads come back to the inbox: listed with the mail folders. */}
              {f.key === 'starred' && <SnoozedNavItem active={page === 'Snoozed'} />}
              </Fragment>
            );
          })}
        </ul>

        <OwnFolders />

        <h2 className="sidebar__section-title">{he.layout.tools}</h2>
        <ul className="nav-list" data-testid="tools-list">
          {TOOLS.map(({ page: target, label, Icon }) => (
            <li key={target}>
              <Link
                to={pagePath(target)}
                className={`nav-item${page === target ? ' is-active' : ''}`}
                aria-current={page === target ? 'page' : undefined}
                data-testid={`tool-${target}`}
              >
                <Icon />
                <span className="nav-item__label">{label}</span>
              </Link>
            </li>
          ))}
          <li>
            <Link
              to={pagePath('Settings')}
              className={`nav-item${page === 'Settings' ? ' is-active' : ''}`}
              aria-current={page === 'Settings' ? 'page' : undefined}
              data-testid="tool-Settings"
            >
              <SettingsIcon />
              <span className="nav-item__label">{he.layout.settings}</span>
            </Link>
          </li>
        </ul>
      </nav>

      <SidebarFooter />
    </aside>
  );
}

function SidebarSearch() {
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  // On the search page the box shows the search on screen (a search made on the page itself
  // included), not the one typed here last.
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const shown = pathname.toLowerCase() === '/search' ? (params.get('q') ?? '') : null;
  useEffect(() => {
    if (shown !== null) setQ(shown);
  }, [shown]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const query = q.trim();
    if (!query) return;
    navigate(`/Search?q=${encodeURIComponent(query)}`);
  }

  return (
    <form className="sidebar-search" role="search" onSubmit={onSubmit}>
      <label htmlFor="sidebar-search-input" className="visually-hidden">
        {he.layout.searchLabel}
      </label>
      <SearchIcon className="sidebar-search__icon" />
      <input
        id="sidebar-search-input"
        type="search"
        dir="auto"
        placeholder={he.layout.searchPlaceholder}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        enterKeyHint="search"
        data-testid="sidebar-search"
      />
    </form>
  );
}

function SidebarFooter() {
  const { user, logout } = useAuth();
  const [busy, setBusy] = useState(false);

  return (
    <div className="sidebar-footer">
      {user && (
        <div className="account" aria-label={he.layout.account} role="group">
          <span className="avatar" aria-hidden="true">
            {Array.from(user.name.trim() || user.username)[0]}
          </span>
          <span className="account__text">
            <span className="account__name" dir="auto" data-testid="user-name">
              {user.name}
            </span>
            <bdi className="account__username" dir="ltr" data-testid="user-username">
              {user.username}
            </bdi>
          </span>
        </div>
      )}
      <div className="sidebar-footer__actions">
        <ScaleControl />
        <button
          type="button"
          className="sidebar-footer__action"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void logout();
          }}
          data-testid="logout"
        >
          <LogoutIcon />
          <span>{he.layout.logout}</span>
        </button>
      </div>
    </div>
  );
}
