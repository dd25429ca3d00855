// The mail body: a contentEditable (right-to-left by default) with a formatting toolbar. The
// editor is uncontrolled — the page reads its innerHTML when sending and writes it when a template
// is applied — because re-rendering a contentEditable from React state loses the caret.
// Toolbar buttons keep the selection (mousedown is prevented) and show their state with
// aria-pressed, read from the browser on every selection change.

import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { he } from '../../i18n/he';
import {
  AlignCenterIcon,
  AlignLeftIcon,
  AlignRightIcon,
  BoldIcon,
  BulletsIcon,
  DirectionIcon,
  ItalicIcon,
  LinkIcon,
  UnderlineIcon,
} from '../../components/icons';
import {
  applyFormat,
  directionAt,
  exec,
  focusKeepingSelection,
  formatActive,
  insertLink,
  isBlankHtml,
  saveSelection,
  selectionNode,
  toggleBlockDirection,
  type Format,
} from './editorCommands';
import { LinkPopover } from './LinkPopover';

const BUTTONS: { format: Format; testId: string; label: string; Icon: ComponentType }[] = [
  { format: 'bold', testId: 'fmt-bold', label: he.compose.bold, Icon: BoldIcon },
  { format: 'italic', testId: 'fmt-italic', label: he.compose.italic, Icon: ItalicIcon },
  { format: 'underline', testId: 'fmt-underline', label: he.compose.underline, Icon: UnderlineIcon },
  { format: 'bullets', testId: 'fmt-bullets', label: he.compose.bullets, Icon: BulletsIcon },
  { format: 'alignRight', testId: 'fmt-align-right', label: he.compose.alignRight, Icon: AlignRightIcon },
  { format: 'alignCenter', testId: 'fmt-align-center', label: he.compose.alignCenter, Icon: AlignCenterIcon },
  { format: 'alignLeft', testId: 'fmt-align-left', label: he.compose.alignLeft, Icon: AlignLeftIcon },
];

type Active = Partial<Record<Format, boolean>> & { ltr?: boolean };

export interface RichEditorProps {
  editorRef: RefObject<HTMLDivElement | null>;
  initialHtml: string;
  /** Called on every edit, so the page can forget a "body is empty" error once the user types. */
  onInput?: () => void;
  /** More controls at the toolbar's far end (the AI menu). */
  toolbarEnd?: ReactNode;
}

export function RichEditor({ editorRef, initialHtml, onInput, toolbarEnd }: RichEditorProps) {
  const [active, setActive] = useState<Active>({});
  const [linkRange, setLinkRange] = useState<Range | null | undefined>(undefined);
  const [blank, setBlank] = useState(!initialHtml);
  const initialized = useRef(false);

  // The initial body is written once; after that the DOM is the user's.
  useEffect(() => {
    const el = editorRef.current;
    if (!el || initialized.current) return;
    initialized.current = true;
    el.innerHTML = initialHtml;
    setBlank(isBlankHtml(el));
  }, [editorRef, initialHtml]);

  // New lines become <div>s, Chromium's own default, because its list command nests the list in
  // the current block and <div><ul> is valid HTML where <p><ul> is not.
  const onFocus = () => exec('defaultParagraphSeparator', 'div');

  function changed() {
    const el = editorRef.current;
    if (el) {
      // The first line typed into an empty editor is bare text; it becomes a block like the
      // lines after it, so alignment and direction apply to that line and not the whole mail.
      if (selectionNode(el)?.parentNode === el) exec('formatBlock', 'div');
      setBlank(isBlankHtml(el));
    }
    onInput?.();
  }

  const refresh = useCallback(() => {
    const el = editorRef.current;
    if (!el || !selectionNode(el)) return;
    const next: Active = { ltr: directionAt(el) === 'ltr' };
    for (const b of BUTTONS) next[b.format] = formatActive(b.format);
    setActive(next);
  }, [editorRef]);

  useEffect(() => {
    document.addEventListener('selectionchange', refresh);
    return () => document.removeEventListener('selectionchange', refresh);
  }, [refresh]);

  function run(format: Format) {
    if (editorRef.current) focusKeepingSelection(editorRef.current);
    applyFormat(format);
    refresh();
    changed();
  }

  function toggleDirection() {
    const el = editorRef.current;
    if (!el) return;
    focusKeepingSelection(el);
    const dir = toggleBlockDirection(el);
    setActive((a) => ({ ...a, ltr: dir === 'ltr' }));
    changed();
  }

  function openLink() {
    const el = editorRef.current;
    if (!el) return;
    setLinkRange(saveSelection(el));
  }

  function applyLink(url: string) {
    const el = editorRef.current;
    if (el) insertLink(el, linkRange ?? null, url);
    setLinkRange(undefined);
    changed();
  }

  // Keeps the editor's selection when a toolbar button is pressed.
  const keepSelection = (e: MouseEvent) => e.preventDefault();

  return (
    <div className="editor-box">
      <div className="editor-toolbar" role="toolbar" aria-label={he.compose.toolbar} aria-controls="compose-editor">
        {BUTTONS.map(({ format, testId, label, Icon }) => (
          <button
            key={format}
            type="button"
            className="editor-toolbar__button"
            aria-label={label}
            title={label}
            aria-pressed={!!active[format]}
            onMouseDown={keepSelection}
            onClick={() => run(format)}
            data-testid={testId}
          >
            <Icon />
          </button>
        ))}
        <button
          type="button"
          className="editor-toolbar__button"
          aria-label={he.compose.link}
          title={he.compose.link}
          aria-expanded={linkRange !== undefined}
          onMouseDown={keepSelection}
          onClick={openLink}
          data-testid="fmt-link"
        >
          <LinkIcon />
        </button>
        <button
          type="button"
          className="editor-toolbar__button"
          aria-label={he.compose.direction}
          title={he.compose.direction}
          aria-pressed={!!active.ltr}
          onMouseDown={keepSelection}
          onClick={toggleDirection}
          data-testid="fmt-dir"
        >
          <DirectionIcon />
        </button>
        {toolbarEnd}
      </div>
      {linkRange !== undefined && (
        <LinkPopover
          onApply={applyLink}
          onCancel={() => {
            setLinkRange(undefined);
            editorRef.current?.focus();
          }}
        />
      )}
      <div className="editor-area">
        {/* A placeholder of our own: the editor is rarely :empty (browsers leave <div><br></div>). */}
        {blank && (
          <div className="editor__placeholder" aria-hidden="true">
            {he.compose.bodyPlaceholder}
          </div>
        )}
        <div
          id="compose-editor"
          ref={editorRef}
          className="editor"
          contentEditable
          suppressContentEditableWarning
          dir="rtl"
          role="textbox"
          aria-multiline="true"
          aria-label={he.compose.body}
          aria-placeholder={he.compose.bodyPlaceholder}
          onFocus={onFocus}
          onInput={changed}
          onKeyUp={refresh}
          onMouseUp={refresh}
          data-testid="compose-editor"
        />
      </div>
    </div>
  );
}
