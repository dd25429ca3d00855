// The mail body: a Lexical rich-text editor (right-to-left by default) with a formatting toolbar.
// Lexical (Meta's editor framework) was chosen over TipTap after trying both with Hebrew: both lay
// out a Hebrew and an English paragraph each its own way (dir="auto" per block), but Lexical keeps
// a direction per paragraph in its model (ElementNode.setDirection), which is exactly the
// toolbar's RTL/LTR switch, it imports `dir` from pasted HTML, and its bundle is about a third
// smaller (85 kB against 128 kB gzip for the same features). TipTap writes dir="auto" on every
// node, which Outlook does not honour; here editorHtml.ts writes each paragraph's real direction.
//
// The page talks to the editor through `editorRef` (EditorHandle): the HTML to send (the small
// form of cleanHtml.ts), replacing the body (a template, the AI's improvement: one undoable step),
// whether it is blank, focus. `onInput` is called for the user's edits only, not for those.
// Toolbar buttons keep the editor's focus and selection (mousedown is prevented) and show their
// state with aria-pressed, read from the selection after every change.

import { $isLinkNode, $toggleLink, $createLinkNode } from '@lexical/link';
import { createEmptyHistoryState, registerHistory } from '@lexical/history';
import { $isListNode, INSERT_ORDERED_LIST_COMMAND, INSERT_UNORDERED_LIST_COMMAND, registerList, REMOVE_LIST_COMMAND } from '@lexical/list';
import { $createQuoteNode, $isQuoteNode, registerRichText } from '@lexical/rich-text';
import { $setBlocksType } from '@lexical/selection';
import { $findMatchingParent, mergeRegister } from '@lexical/utils';
import {
  createEditor,
  $createParagraphNode,
  $createTextNode,
  $getRoot,
  $getSelection,
  $isElementNode,
  $isRangeSelection,
  $setSelection,
  CAN_REDO_COMMAND,
  CAN_UNDO_COMMAND,
  COMMAND_PRIORITY_HIGH,
  COMMAND_PRIORITY_LOW,
  FORMAT_ELEMENT_COMMAND,
  FORMAT_TEXT_COMMAND,
  HISTORY_MERGE_TAG,
  PASTE_COMMAND,
  REDO_COMMAND,
  UNDO_COMMAND,
  type BaseSelection,
  type ElementFormatType,
  type EditorThemeClasses,
  type ElementNode,
  type LexicalEditor,
  type TextFormatType,
} from 'lexical';
import {
  lazy,
  Suspense,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import {
  AlignCenterIcon,
  AlignLeftIcon,
  AlignRightIcon,
  BoldIcon,
  BulletsIcon,
  DirectionIcon,
  ItalicIcon,
  LinkIcon,
  NumbersIcon,
  QuoteIcon,
  RedoIcon,
  UnderlineIcon,
  UndoIcon,
} from './editorIcons';
import { heEditor } from '../../i18n/editor';
import { textDirection } from './direction';
import { $insertGeneratedNodes, loadEditorLater } from './clipboardLater';
import { ErrorBoundary } from '../../components/ErrorBoundary';
import { EditableArea } from './EditableArea';
import { $blockDirection, $exportHtml, $isBlank, $nodesFromHtml, $setHtml, EDITOR_NODES } from './editorHtml';

/** What the compose page does with the editor. */
export interface EditorHandle {
  /** The body as the mail's HTML. */
  html(): string;
  /** Replaces the body (cleaned first); one step that undo (Ctrl+Z) takes back. */
  setHtml(html: string): void;
  /** No text in the body. */
  isBlank(): boolean;
  /** Focuses the editor, the caret where it was (at the start the first time). */
  focus(): void;
}

/** The tag of the page's own changes (setHtml): they are not the user's input. */
const PAGE_TAG = 'mailclient-page';

/** The toolbar's link box, from the chunk the editor fetches once it is there (editorLater.ts). */
const LinkPopover = lazy(() => loadEditorLater().then(({ LinkPopover }) => ({ default: LinkPopover })));

type Block = 'paragraph' | 'bullet' | 'number' | 'quote';

interface ToolbarState {
  bold: boolean;
  italic: boolean;
  underline: boolean;
  block: Block;
  align: ElementFormatType;
  ltr: boolean;
  canUndo: boolean;
  canRedo: boolean;
}

const EMPTY_STATE: ToolbarState = {
  bold: false,
  italic: false,
  underline: false,
  block: 'paragraph',
  align: '',
  ltr: false,
  canUndo: false,
  canRedo: false,
};

/** Lexical's class names for what needs CSS of ours (compose.css). */
const THEME: EditorThemeClasses = {
  quote: 'editor__quote',
  link: 'editor__link',
  text: { underline: 'editor__underline', bold: 'editor__bold', italic: 'editor__italic' },
  list: { nested: { listitem: 'editor__nested-item' }, ul: 'editor__ul', ol: 'editor__ol' },
};

export interface RichEditorProps {
  editorRef: RefObject<EditorHandle | null>;
  initialHtml: string;
  /** Called on every edit of the user's, so the page can forget a "body is empty" error. */
  onInput?: () => void;
  /** More controls at the toolbar's far end (the AI menu). */
  toolbarEnd?: ReactNode;
  /** The editable element's id and test id (compose's by default; a draft card has its own). */
  id?: string;
  testId?: string;
  /** Its accessible name (compose's "message body" by default). */
  label?: string;
}

export function RichEditor(props: RichEditorProps) {
  // Made once, with the body read once: the editor owns the body after that. Lexical's own API,
  // not @lexical/react's LexicalComposer (deprecated there, and 1 kB of the chunk with its context).
  const [editor] = useState(() => {
    const created = createEditor({
      namespace: 'compose',
      nodes: EDITOR_NODES,
      theme: THEME,
      onError: (error: Error) => {
        throw error;
      },
    });
    // Not an undo step: the body the editor opened with.
    created.update(() => $setHtml(props.initialHtml), { tag: HISTORY_MERGE_TAG });
    return created;
  });
  return <EditorBody {...props} editor={editor} />;
}

/** The top-level blocks the selection touches. */
function $selectedBlocks(selection: BaseSelection | null): ElementNode[] {
  if (!$isRangeSelection(selection)) return [];
  const blocks = new Map<string, ElementNode>();
  for (const node of [selection.anchor.getNode(), selection.focus.getNode(), ...selection.getNodes()]) {
    const top = node.getTopLevelElement();
    if (top && $isElementNode(top)) blocks.set(top.getKey(), top);
  }
  return [...blocks.values()];
}

function $readToolbar(): Omit<ToolbarState, 'canUndo' | 'canRedo'> {
  const selection = $getSelection();
  if (!$isRangeSelection(selection)) {
    const { canUndo: _u, canRedo: _r, ...none } = EMPTY_STATE;
    return none;
  }
  const top = $selectedBlocks(selection).find((b) => b.isParentOf(selection.anchor.getNode()) || b.is(selection.anchor.getNode()));
  let block: Block = 'paragraph';
  if ($isListNode(top)) block = top.getListType() === 'number' ? 'number' : 'bullet';
  else if ($isQuoteNode(top)) block = 'quote';
  return {
    bold: selection.hasFormat('bold'),
    italic: selection.hasFormat('italic'),
    underline: selection.hasFormat('underline'),
    block,
    align: top?.getFormatType() ?? '',
    ltr: top ? ($blockDirection(top) ?? 'rtl') === 'ltr' : false,
  };
}

function EditorBody({
  editor,
  editorRef,
  onInput,
  toolbarEnd,
  id = 'compose-editor',
  testId = 'compose-editor',
  label,
}: RichEditorProps & { editor: LexicalEditor }) {
  const [state, setState] = useState<ToolbarState>(EMPTY_STATE);
  // The selection when the link box opened (the box has the focus meanwhile); undefined: closed.
  const [linkSelection, setLinkSelection] = useState<BaseSelection | null | undefined>(undefined);
  const onInputRef = useRef(onInput);
  onInputRef.current = onInput;

  useImperativeHandle(editorRef, () => handleFor(editor), [editor]);

  // Rich text's keys, clipboard and drops, lists and undo, before the first key: what Lexical's
  // RichTextPlugin, ListPlugin and HistoryPlugin register, without the rest of those components
  // (RichTextPlugin's decorator portals: the editor has no decorator nodes; its import of Lexical's
  // extension builder alone was 3 kB of the editor chunk). Undo merges typing within a second.
  useLayoutEffect(
    () => mergeRegister(registerRichText(editor), registerList(editor), registerHistory(editor, createEmptyHistoryState(), 1000)),
    [editor],
  );
  // Once the editor is there, one small chunk (editorLater.ts): copy, cut, paste and drop in full
  // (clipboardLater.ts), and Dragon dictation's messages, which RichTextPlugin registers too.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    // Not fetched (the link is gone): the fallbacks serve, and the link box asks again.
    loadEditorLater().then(({ registerDragonSupport }) => {
      if (!gone) stop = registerDragonSupport(editor);
    }, () => undefined);
    return () => {
      gone = true;
      stop?.();
    };
  }, [editor]);

  useEffect(
    () =>
      mergeRegister(
        editor.registerUpdateListener(({ editorState, dirtyElements, dirtyLeaves, tags }) => {
          const next = editorState.read($readToolbar);
          setState((s) => ({ ...s, ...next }));
          const edited = dirtyElements.size > 0 || dirtyLeaves.size > 0;
          if (edited && !tags.has(PAGE_TAG) && !tags.has(HISTORY_MERGE_TAG)) onInputRef.current?.();
        }),
        editor.registerCommand(CAN_UNDO_COMMAND, (canUndo) => (setState((s) => ({ ...s, canUndo })), false), COMMAND_PRIORITY_LOW),
        editor.registerCommand(CAN_REDO_COMMAND, (canRedo) => (setState((s) => ({ ...s, canRedo })), false), COMMAND_PRIORITY_LOW),
        // Pasted HTML (a web page, Word, Gmail) is cleaned to the editor's own tags first; plain
        // text and Lexical's own clipboard take Lexical's way.
        editor.registerCommand(
          PASTE_COMMAND,
          (event) => {
            const data = 'clipboardData' in event ? event.clipboardData : null;
            const html = data?.getData('text/html');
            if (!html || data?.types.includes('application/x-lexical-editor')) return false;
            event.preventDefault();
            editor.update(() => {
              const selection = $getSelection();
              const nodes = $nodesFromHtml(html);
              if (selection && nodes.length) $insertGeneratedNodes(editor, nodes, selection);
            });
            return true;
          },
          COMMAND_PRIORITY_HIGH,
        ),
      ),
    [editor],
  );

  function formatText(format: TextFormatType) {
    editor.dispatchCommand(FORMAT_TEXT_COMMAND, format);
  }

  function toggleList(type: 'bullet' | 'number') {
    if (state.block === type) editor.dispatchCommand(REMOVE_LIST_COMMAND, undefined);
    else editor.dispatchCommand(type === 'bullet' ? INSERT_UNORDERED_LIST_COMMAND : INSERT_ORDERED_LIST_COMMAND, undefined);
  }

  function toggleQuote() {
    const quote = state.block === 'quote';
    editor.update(() => {
      if (quote) $setBlocksType($getSelection(), () => $createParagraphNode());
      else $setBlocksType($getSelection(), () => $createQuoteNode());
    });
  }

  function align(to: 'left' | 'center' | 'right') {
    // Pressed again, the alignment goes back to the paragraph's own (its reading direction's).
    editor.dispatchCommand(FORMAT_ELEMENT_COMMAND, state.align === to ? '' : to);
  }

  /** Switches the selected paragraphs between right-to-left and left-to-right. */
  function toggleDirection() {
    editor.update(() => {
      for (const block of $selectedBlocks($getSelection())) {
        const next = ($blockDirection(block) ?? 'rtl') === 'rtl' ? 'ltr' : 'rtl';
        // The text's own direction again: the paragraph follows its text as before.
        block.setDirection(next === textDirection(block.getTextContent()) ? null : next);
      }
    });
  }

  function openLink() {
    setLinkSelection(editor.getEditorState().read(() => $getSelection()?.clone() ?? null));
  }

  function applyLink(url: string) {
    const saved = linkSelection;
    setLinkSelection(undefined);
    editor.update(() => {
      if (saved) $setSelection(saved.clone());
      else $getRoot().selectEnd();
      const selection = $getSelection();
      if (!$isRangeSelection(selection)) return;
      if (!selection.isCollapsed()) {
        $toggleLink(url);
        // The caret goes after the link, as typing on should not replace or extend it.
        const linked = $getSelection();
        if ($isRangeSelection(linked)) {
          const end = linked.isBackward() ? linked.anchor : linked.focus;
          linked.anchor.set(end.key, end.offset, end.type);
          linked.focus.set(end.key, end.offset, end.type);
        }
        return;
      }
      // Nothing selected: the link under the caret gets the new address, or the address is
      // inserted as a link of its own.
      const link = $findMatchingParent(selection.anchor.getNode(), $isLinkNode);
      if (link) link.setURL(url);
      else selection.insertNodes([$createLinkNode(url).append($createTextNode(url))]);
    });
    focusEditor(editor);
  }

  // Keeps the editor's selection when a toolbar button is pressed.
  const keepSelection = (e: MouseEvent) => e.preventDefault();

  const t = heEditor;
  const buttons: { testId: string; label: string; Icon: ComponentType; pressed?: boolean; disabled?: boolean; mirror?: boolean; run: () => void }[] = [
    { testId: 'fmt-bold', label: t.bold, Icon: BoldIcon, pressed: state.bold, run: () => formatText('bold') },
    { testId: 'fmt-italic', label: t.italic, Icon: ItalicIcon, pressed: state.italic, run: () => formatText('italic') },
    { testId: 'fmt-underline', label: t.underline, Icon: UnderlineIcon, pressed: state.underline, run: () => formatText('underline') },
    { testId: 'fmt-bullets', label: t.bullets, Icon: BulletsIcon, pressed: state.block === 'bullet', run: () => toggleList('bullet') },
    { testId: 'fmt-numbers', label: t.numbers, Icon: NumbersIcon, pressed: state.block === 'number', run: () => toggleList('number') },
    { testId: 'fmt-quote', label: t.quote, Icon: QuoteIcon, pressed: state.block === 'quote', run: toggleQuote },
    { testId: 'fmt-align-right', label: t.alignRight, Icon: AlignRightIcon, pressed: state.align === 'right', run: () => align('right') },
    { testId: 'fmt-align-center', label: t.alignCenter, Icon: AlignCenterIcon, pressed: state.align === 'center', run: () => align('center') },
    { testId: 'fmt-align-left', label: t.alignLeft, Icon: AlignLeftIcon, pressed: state.align === 'left', run: () => align('left') },
  ];
  const history: typeof buttons = [
    { testId: 'fmt-undo', label: t.undo, Icon: UndoIcon, disabled: !state.canUndo, mirror: true, run: () => editor.dispatchCommand(UNDO_COMMAND, undefined) },
    { testId: 'fmt-redo', label: t.redo, Icon: RedoIcon, disabled: !state.canRedo, mirror: true, run: () => editor.dispatchCommand(REDO_COMMAND, undefined) },
  ];
  const button = ({ testId, label, Icon, pressed, disabled, mirror, run }: (typeof buttons)[number]) => (
    <button
      key={testId}
      type="button"
      className={mirror ? 'editor-toolbar__button editor-toolbar__button--mirror' : 'editor-toolbar__button'}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onMouseDown={keepSelection}
      onClick={run}
      data-testid={testId}
    >
      <Icon />
    </button>
  );

  return (
    <div className="editor-box">
      <div className="editor-toolbar" role="toolbar" aria-label={t.toolbar} aria-controls={id}>
        {buttons.map(button)}
        <button
          type="button"
          className="editor-toolbar__button"
          aria-label={t.link}
          title={t.link}
          aria-expanded={linkSelection !== undefined}
          onMouseDown={keepSelection}
          onClick={openLink}
          data-testid="fmt-link"
        >
          <LinkIcon />
        </button>
        <button
          type="button"
          className="editor-toolbar__button"
          aria-label={t.direction}
          title={t.direction}
          aria-pressed={state.ltr}
          onMouseDown={keepSelection}
          onClick={toggleDirection}
          data-testid="fmt-dir"
        >
          <DirectionIcon />
        </button>
        {history.map(button)}
        {toolbarEnd}
      </div>
      {/* A link box whose chunk cannot be fetched says so here, not in place of the page and its body. */}
      {linkSelection !== undefined && (
        <ErrorBoundary>
          <Suspense fallback={null}>
            <LinkPopover
              onApply={applyLink}
              onCancel={() => {
                setLinkSelection(undefined);
                focusEditor(editor);
              }}
            />
          </Suspense>
        </ErrorBoundary>
      )}
      {/* The body's direction is set here: Lexical owns the editable element's own `dir`. */}
      <div className="editor-area" dir="rtl">
        <EditableArea
          editor={editor}
          id={id}
          className="editor"
          role="textbox"
          aria-multiline="true"
          aria-label={label ?? t.body}
          aria-placeholder={t.bodyPlaceholder}
          // Shown while the body is one empty paragraph (EditableArea); over the first line,
          // clicks go through to the editor.
          placeholder={
            <div className="editor__placeholder" aria-hidden="true">
              {t.bodyPlaceholder}
            </div>
          }
          data-testid={testId}
        />
      </div>
    </div>
  );
}

/**
 * Focuses the editor now: Lexical restores its selection in an update, and the element takes the
 * focus at once (keys pressed right after, even in jsdom or a page still loading, reach it).
 */
function focusEditor(editor: LexicalEditor, options?: { defaultSelection: 'rootStart' }) {
  editor.focus(undefined, options);
  const root = editor.getRootElement();
  if (root && document.activeElement !== root) root.focus({ preventScroll: true });
}

function handleFor(editor: LexicalEditor): EditorHandle {
  let focused = false;
  return {
    html: () => editor.getEditorState().read($exportHtml),
    setHtml: (html) => editor.update(() => $setHtml(html), { tag: PAGE_TAG, discrete: true }),
    isBlank: () => editor.getEditorState().read($isBlank),
    focus: () => {
      focusEditor(editor, focused ? undefined : { defaultSelection: 'rootStart' });
      focused = true;
    },
  };
}
