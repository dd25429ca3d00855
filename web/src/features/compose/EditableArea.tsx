// The editor's editable element and its placeholder. Lexical's ContentEditable does the same with
// every ARIA property a combobox or a read-only editor needs; the compose body is always editable
// and a textbox, and this is 1 kB gzip less of the editor's chunk (issue 42: under 80 kB).

import { $getRoot, $isParagraphNode, type LexicalEditor } from 'lexical';
import { useCallback, useSyncExternalStore, type HTMLAttributes, type ReactNode } from 'react';

type EditableAreaProps = Omit<HTMLAttributes<HTMLDivElement>, 'placeholder'> & {
  editor: LexicalEditor;
  /** Shown while the body is one empty paragraph (and no input method is composing). */
  placeholder: ReactNode;
  'data-testid'?: string;
};

/**
 * Whether the body is blank as Lexical's placeholder takes it: one paragraph (or none), not
 * indented, with no text and no line break, while no input method is composing.
 */
function placeholderShown(editor: LexicalEditor): boolean {
  if (editor.isComposing()) return false;
  return editor.getEditorState().read(() => {
    const root = $getRoot();
    const first = root.getFirstChild();
    if (root.getChildrenSize() > 1) return false;
    return first === null || ($isParagraphNode(first) && first.getIndent() === 0 && first.getTextContent() === '');
  });
}

/** The element Lexical edits (its root element), followed by the placeholder when it is blank. */
export function EditableArea({ editor, placeholder, ...attributes }: EditableAreaProps) {
  const root = useCallback((element: HTMLDivElement | null) => editor.setRootElement(element), [editor]);
  // Read from the editor's state, again after each of its updates.
  const follow = useCallback((changed: () => void) => editor.registerUpdateListener(() => changed()), [editor]);
  const blank = useSyncExternalStore(follow, () => placeholderShown(editor));
  return (
    <>
      <div {...attributes} ref={root} contentEditable suppressContentEditableWarning spellCheck />
      {blank && placeholder}
    </>
  );
}
