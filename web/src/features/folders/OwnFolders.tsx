// The sidebar's "my folders": each mailbox's own folders as a collapsible tree under the fixed
// folders, with unread counts; a folder opens in the inbox page (`/Inbox?box=<path>`). Each has a
// small menu (new folder inside, rename, move, delete) and, on a desktop, takes mail dropped on it.
// A folder whose server keeps no statuses (Outlook.com's, without keywords) carries a mark saying
// they stay in mailclient only.
// Grouped per mailbox when the user has several.

import { useState, type DragEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import {
  createFolder,
  deleteFolder,
  renameFolder,
  type FolderNode,
  type FolderTree,
  type MailboxFolders,
} from '../../api/folders';
import { he } from '../../i18n/he';
import { useToast } from '../../session/Toasts';
import { DeleteFolderDialog, MoveDialog, NameDialog } from './FolderDialogs';
import { BOX_PARAM, DRAG_TYPE, deleteSize, droppedMail, droppedMailIds, ownFolderHref, ownTree, parentChoices, type TreeItem } from './tree';
import { useFolderTree, useMoveMail } from './useFolderTree';

const t = he.ownFolders;

type Action =
  | { kind: 'create'; mailbox: MailboxFolders; parent: FolderNode | null }
  | { kind: 'rename'; mailbox: MailboxFolders; node: FolderNode }
  | { kind: 'move'; mailbox: MailboxFolders; node: FolderNode }
  | { kind: 'delete'; mailbox: MailboxFolders; item: TreeItem };

function formatCount(n: number): string {
  return n > 999 ? '999+' : String(n);
}

export function OwnFolders() {
  const { mailboxes, mutate } = useFolderTree();
  const [action, setAction] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  if (!mailboxes || mailboxes.length === 0) return null;
  const several = mailboxes.length > 1;
  const shown = params.get(BOX_PARAM);

  /**
   * The folder on screen was renamed, moved or deleted (itself or a folder above it): show it
   * under its new path (`fullName` in the new tree), or the inbox when it is gone.
   */
  function follow(tree: FolderTree, accountId: number, oldFull: string, newFull: string | null) {
    const current = shown ? mailboxes?.flatMap((m) => m.folders).find((f) => f.path === shown) : undefined;
    if (!current || current.accountId !== accountId) return;
    if (current.fullName !== oldFull && !current.fullName.startsWith(`${oldFull}/`)) return;
    const full = newFull === null ? null : newFull + current.fullName.slice(oldFull.length);
    const moved = full && tree.mailboxes.find((m) => m.accountId === accountId)?.folders.find((f) => f.fullName === full);
    navigate(moved ? ownFolderHref(moved.path) : '/Inbox', { replace: true });
  }

  async function run(
    call: () => Promise<FolderTree | { tree: FolderTree }>,
    done: string,
    after?: (tree: FolderTree) => void,
  ) {
    setBusy(true);
    try {
      const res = await call();
      const tree = 'tree' in res ? res.tree : res;
      await mutate(tree, { revalidate: false });
      after?.(tree);
      toast.success(done);
      setAction(null);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="own-folders" data-testid="own-folders" aria-label={t.title}>
      <div className="own-folders__head">
        <h2 className="sidebar__section-title">{t.title}</h2>
        {!several && (
          <button
            type="button"
            className="icon-button own-folders__add"
            aria-label={t.create}
            title={t.create}
            onClick={() => setAction({ kind: 'create', mailbox: mailboxes[0]!, parent: null })}
            data-testid="own-folders-add"
          >
            +
          </button>
        )}
      </div>
      {mailboxes.map((mailbox) => (
        <div key={mailbox.accountId} className="own-folders__mailbox" data-testid="own-folders-mailbox">
          {several && (
            <div className="own-folders__head">
              <h3 className="own-folders__mailbox-title" dir="ltr">
                {mailbox.email}
              </h3>
              <button
                type="button"
                className="icon-button own-folders__add"
                aria-label={`${t.create} (${mailbox.email})`}
                title={t.create}
                onClick={() => setAction({ kind: 'create', mailbox, parent: null })}
                data-testid="own-folders-add"
              >
                +
              </button>
            </div>
          )}
          <FolderItems items={ownTree(mailbox.folders)} mailbox={mailbox} onAction={setAction} />
        </div>
      ))}

      {action?.kind === 'create' && (
        <NameDialog
          title={action.parent ? `${t.createTitle}: ${action.parent.fullName}` : t.createTitle}
          busy={busy}
          onClose={() => setAction(null)}
          onSave={(name) =>
            void run(
              () => createFolder({ accountId: action.mailbox.accountId, parent: action.parent?.path, name }),
              t.created(name),
            )
          }
        />
      )}
      {action?.kind === 'rename' && (
        <NameDialog
          title={t.renameTitle}
          initial={action.node.name}
          busy={busy}
          onClose={() => setAction(null)}
          onSave={(name) =>
            void run(
              () =>
                renameFolder({
                  accountId: action.mailbox.accountId,
                  path: action.node.path,
                  name,
                  parent: action.node.parent ?? undefined,
                }),
              t.renamed(name),
              (tree) => follow(tree, action.mailbox.accountId, action.node.fullName, renamedFull(action.node, name)),
            )
          }
        />
      )}
      {action?.kind === 'move' && (
        <MoveDialog
          choices={parentChoices(action.mailbox, action.node.path)}
          current={action.node.parent}
          busy={busy}
          onClose={() => setAction(null)}
          onSave={(parent) =>
            void run(
              () =>
                renameFolder({
                  accountId: action.mailbox.accountId,
                  path: action.node.path,
                  name: action.node.name,
                  parent: parent ?? undefined,
                }),
              t.moved(action.node.name),
              (tree) => {
                const above = parent ? action.mailbox.folders.find((f) => f.path === parent)?.fullName : null;
                follow(tree, action.mailbox.accountId, action.node.fullName, above ? `${above}/${action.node.name}` : action.node.name);
              },
            )
          }
        />
      )}
      {action?.kind === 'delete' && (
        <DeleteFolderDialog
          name={action.item.node.fullName}
          {...deleteSize(action.item)}
          busy={busy}
          onCancel={() => setAction(null)}
          onConfirm={() =>
            void run(
              () => deleteFolder({ accountId: action.mailbox.accountId, path: action.item.node.path }),
              t.deleted(action.item.node.fullName),
              (tree) => follow(tree, action.mailbox.accountId, action.item.node.fullName, null),
            )
          }
        />
      )}
    </section>
  );
}

/** A folder's full name after a rename to `name` (its place unchanged). */
function renamedFull(node: FolderNode, name: string): string {
  const cut = node.fullName.length - node.name.length;
  return node.fullName.slice(0, cut) + name;
}

function FolderItems({
  items,
  mailbox,
  onAction,
}: {
  items: TreeItem[];
  mailbox: MailboxFolders;
  onAction: (a: Action) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="nav-list own-folders__list" role="group">
      {items.map((item) => (
        <FolderItem key={item.node.path} item={item} mailbox={mailbox} onAction={onAction} />
      ))}
    </ul>
  );
}

function FolderItem({ item, mailbox, onAction }: { item: TreeItem; mailbox: MailboxFolders; onAction: (a: Action) => void }) {
  const { node, children } = item;
  const [params] = useSearchParams();
  const [open, setOpen] = useState(true);
  const [menu, setMenu] = useState(false);
  const [over, setOver] = useState(false);
  const moveMail = useMoveMail();
  const active = params.get(BOX_PARAM) === node.path;

  function onDragOver(ev: DragEvent) {
    if (!ev.dataTransfer.types.includes(DRAG_TYPE)) return;
    ev.preventDefault();
    ev.dataTransfer.dropEffect = 'move';
    setOver(true);
  }
  function onDrop(ev: DragEvent) {
    setOver(false);
    const drag = droppedMail(ev);
    if (!drag) return;
    ev.preventDefault();
    // The whole of each dragged thread, as "move to folder" moves it.
    void droppedMailIds(drag).then((ids) => moveMail(ids, node));
  }

  const classes = ['nav-item', 'own-folder'];
  if (active) classes.push('is-active');
  if (over) classes.push('is-drop-target');
  return (
    <li data-testid="own-folder" data-path={node.path} data-name={node.name}>
      <div className="own-folder__row">
        {children.length > 0 ? (
          <button
            type="button"
            className="own-folder__toggle"
            aria-expanded={open}
            aria-label={open ? t.collapse(node.name) : t.expand(node.name)}
            onClick={() => setOpen(!open)}
            data-testid="own-folder-toggle"
          >
            <span aria-hidden="true">{open ? '▾' : '◂'}</span>
          </button>
        ) : (
          <span className="own-folder__toggle" aria-hidden="true" />
        )}
        <Link
          to={ownFolderHref(node.path)}
          className={classes.join(' ')}
          aria-current={active ? 'page' : undefined}
          onDragOver={onDragOver}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          title={over ? t.dropHint(node.name) : node.fullName}
          data-testid="own-folder-link"
        >
          <span className="nav-item__label" dir="auto">
            {node.name}
          </span>
          {node.statusesLocal && (
            <span className="own-folder__local" role="img" aria-label={t.statusesLocal} title={t.statusesLocal} data-testid="own-folder-local-statuses">
              ⓘ
            </span>
          )}
          {node.unread > 0 && (
            <span className="badge" title={t.unread(node.unread)} data-testid="own-folder-unread" dir="ltr">
              {formatCount(node.unread)}
            </span>
          )}
        </Link>
        <button
          type="button"
          className="icon-button own-folder__menu-button"
          aria-label={t.menu(node.name)}
          aria-expanded={menu}
          onClick={() => setMenu(!menu)}
          data-testid="own-folder-menu"
        >
          <span aria-hidden="true">⋮</span>
        </button>
      </div>
      {menu && (
        <ul className="own-folder__menu" role="menu" data-testid="own-folder-menu-list">
          {(
            [
              ['create', t.createInside, () => onAction({ kind: 'create', mailbox, parent: node })],
              ['rename', t.rename, () => onAction({ kind: 'rename', mailbox, node })],
              ['move', t.move, () => onAction({ kind: 'move', mailbox, node })],
              ['delete', t.remove, () => onAction({ kind: 'delete', mailbox, item })],
            ] as const
          ).map(([key, label, act]) => (
            <li key={key} role="none">
              <button
                type="button"
                role="menuitem"
                className={`own-folder__menu-item${key === 'delete' ? ' is-danger' : ''}`}
                onClick={() => {
                  setMenu(false);
                  act();
                }}
                data-testid={`own-folder-${key}`}
              >
                {label}
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && <FolderItems items={children} mailbox={mailbox} onAction={onAction} />}
    </li>
  );
}
